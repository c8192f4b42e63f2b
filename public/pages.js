// Steady as She Goes! — small enhancements for every page. The pages work without it.
(function () {
  'use strict';
  document.documentElement.classList.add('js');

  // "Go back" links on error pages.
  document.querySelectorAll('[data-back]').forEach(function (a) {
    a.addEventListener('click', function (e) {
      if (history.length > 1) { e.preventDefault(); history.back(); }
    });
  });

  // Buttons that ask before doing something that cannot be undone lightly.
  document.querySelectorAll('[data-confirm]').forEach(function (b) {
    b.addEventListener('click', function (e) {
      if (!window.confirm(b.getAttribute('data-confirm'))) { e.preventDefault(); e.stopImmediatePropagation(); }
    });
  });

  // Long actions: say what is happening and keep the form from being sent twice.
  document.querySelectorAll('form[data-busy]').forEach(function (form) {
    form.addEventListener('submit', function (e) {
      var button = e.submitter;
      if (form.getAttribute('data-sent') === 'yes') { e.preventDefault(); return; }
      form.setAttribute('data-sent', 'yes');
      if (button && button.getAttribute('data-busy-text')) button.textContent = button.getAttribute('data-busy-text');
      // Disable after the browser has read the form (a disabled submitter is not sent).
      setTimeout(function () {
        form.querySelectorAll('button').forEach(function (b) { b.disabled = true; });
      }, 0);
    });
  });

  // A turn's mail on its way (templates/pages/_mailProgress.hbs): asked again every 2 s until
  // nothing is left to send, so the GM sees "all sent" without reloading or opening the Mail page.
  document.querySelectorAll('[data-mail-progress]').forEach(function (first) {
    var box = first;
    function again() {
      if (box.getAttribute('data-done') === 'yes') return;
      setTimeout(function () {
        fetch(box.getAttribute('data-mail-progress'), { credentials: 'same-origin', headers: { accept: 'text/html' } })
          .then(function (r) { return r.ok ? r.text() : null; })
          .then(function (html) {
            if (html === null) return;
            var t = document.createElement('template');
            t.innerHTML = html.trim();
            var next = t.content.firstElementChild;
            if (!next || !next.hasAttribute('data-mail-progress')) return;
            box.replaceWith(next);
            box = next;
            again();
          })
          .catch(function () { /* offline or signed out: the refresh link stays */ });
      }, 2000);
    }
    again();
  });
})();
