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
})();
