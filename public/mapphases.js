// Steady as She Goes! — the turn report's phase slider (docs/web-pages.md, "Watch the turn
// happen"). The map carries every track, sighting, battle and capture of the turn, each
// with the movement phase it happened in (data-phase); the slider shows them up to a phase.
// Without JavaScript the whole turn is shown.
(function () {
  'use strict';
  document.querySelectorAll('[data-phase-slider]').forEach(function (input) {
    var figure = input.closest('figure');
    var svg = figure && figure.querySelector('svg');
    var out = figure && figure.querySelector('[data-phase-shown]');
    if (!svg) return;
    function show() {
      var k = Number(input.value);
      svg.querySelectorAll('[data-phase]').forEach(function (el) {
        el.style.display = Number(el.getAttribute('data-phase')) <= k ? '' : 'none';
      });
      if (out) out.textContent = k === 0 ? 'before movement' : k >= 7 ? 'the whole turn' : 'up to phase ' + k;
    }
    input.addEventListener('input', show);
    show();
  });
})();
