// Steady as She Goes! — live countdowns to deadlines. The page already says when the
// deadline is (in the reader's own time zone) and roughly how long is left; this keeps
// the "how long" ticking, to the second, without reloading. The page works without it.
(function () {
  'use strict';
  var clocks = Array.prototype.slice.call(document.querySelectorAll('time[data-countdown]'));
  if (clocks.length === 0) return;
  function two(n) { return n < 10 ? '0' + n : String(n); }
  function words(ms) {
    var past = ms < 0;
    var s = Math.floor(Math.abs(ms) / 1000);
    var d = Math.floor(s / 86400); s -= d * 86400;
    var h = Math.floor(s / 3600); s -= h * 3600;
    var m = Math.floor(s / 60); s -= m * 60;
    var text = (d > 0 ? d + (d === 1 ? ' day ' : ' days ') : '') + two(h) + ':' + two(m) + ':' + two(s);
    return past ? 'passed ' + text + ' ago' : 'in ' + text;
  }
  function tick() {
    var now = Date.now();
    clocks.forEach(function (el) {
      var at = Date.parse(el.getAttribute('datetime'));
      if (!isNaN(at)) el.textContent = words(at - now);
    });
  }
  tick();
  setInterval(tick, 1000);
})();
