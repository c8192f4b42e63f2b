// Steady as She Goes! — zoom and pan for the maps (docs/web-pages.md, "The map").
// Buttons (+, −, whole map), the mouse wheel, a one-finger or mouse drag, and a two-finger
// pinch all change the SVG's viewBox; nothing is fetched. A drag does not count as a click,
// so plotting a route by clicking nodes (orders.js) keeps working. Without JavaScript the
// map is shown whole, as before.
// Zooming keeps every label at the size it has on the whole map: each name shrinks in map
// units as the map grows, around the point of its box nearest its mark, so it stays by
// the mark and the room between names grows (the map names every node; zoomed in, the
// crowded Lesser Antilles spread out until they read). Where names would overlap on screen
// (a phone's whole map), the less important give way, and come back as zooming makes room.
(function () {
  'use strict';
  var MAX_ZOOM = 8;
  var STEP = 1.5;

  function setup(figure) {
    var svg = figure.querySelector('svg');
    if (!svg || !svg.viewBox || !svg.viewBox.baseVal) return;
    var b = svg.viewBox.baseVal;
    var whole = { x: b.x, y: b.y, w: b.width, h: b.height };
    var view = { x: whole.x, y: whole.y, w: whole.w, h: whole.h };
    svg.classList.add('zoomable');

    // Each label and the map point it shrinks towards: the point of its box nearest the
    // node's mark (or the leader line's end), else the box's centre.
    var labels = [];
    svg.querySelectorAll('text.label').forEach(function (t) {
      var bb;
      try { bb = t.getBBox(); } catch (err) { return; }
      var g = t.parentNode;
      var mark = g && g.querySelector ? g.querySelector('line.leader, circle.port, circle.sea, rect.box') : null;
      var px = bb.x + bb.width / 2, py = bb.y + bb.height / 2;
      if (mark && mark.tagName === 'line') { px = +mark.getAttribute('x2'); py = +mark.getAttribute('y2'); }
      else if (mark && mark.tagName === 'circle') { px = +mark.getAttribute('cx'); py = +mark.getAttribute('cy'); }
      else if (mark) { px = +mark.getAttribute('x') + +mark.getAttribute('width') / 2; py = +mark.getAttribute('y') + +mark.getAttribute('height') / 2; }
      labels.push({ t: t, x: Math.min(bb.x + bb.width, Math.max(bb.x, px)), y: Math.min(bb.y + bb.height, Math.max(bb.y, py)) });
    });
    // Labels first in the order they give way: names of places, then fleets, then seas.
    var RANK = { place: 0, 'fleet-name': 1, 'sea-name': 2 };
    function rank(t) {
      for (var c in RANK) if (t.classList.contains(c)) return RANK[c];
      return 3;
    }
    labels.sort(function (a, b) { return rank(a.t) - rank(b.t); });
    var shown = null;
    // The screen size of a label: its size on the whole map, but never under the size it is
    // written at (a phone shows the whole map small; its names are then drawn full size, and
    // the ones that do not fit wait for a zoom).
    function scaleLabels(z) {
      var ctm = svg.getScreenCTM();
      if (!ctm || !ctm.a) return;
      var key = z.toFixed(4) + ' ' + ctm.a.toFixed(4);
      if (key === shown) return;
      shown = key;
      var atWhole = ctm.a / z;
      var s = Math.max(atWhole, 1) / ctm.a;
      var placed = [];
      // All writes, then all reads: one layout, not one per label.
      labels.forEach(function (l) {
        if (Math.abs(s - 1) < 1e-3) l.t.removeAttribute('transform');
        else l.t.setAttribute('transform', 'translate(' + l.x + ' ' + l.y + ') scale(' + s + ') translate(' + -l.x + ' ' + -l.y + ')');
      });
      var rects = labels.map(function (l) { return l.t.getBoundingClientRect(); });
      labels.forEach(function (l, i) {
        var r = rects[i];
        var clash = placed.some(function (o) { return r.left < o.right - 1 && r.right > o.left + 1 && r.top < o.bottom - 1 && r.bottom > o.top + 1; });
        if (clash) l.t.setAttribute('visibility', 'hidden');
        else { l.t.removeAttribute('visibility'); placed.push(r); }
      });
      figure.setAttribute('data-labels-shown', String(placed.length));
    }

    function apply() {
      // Never smaller than the whole map's share at MAX_ZOOM, never larger than the map.
      view.w = Math.min(whole.w, Math.max(whole.w / MAX_ZOOM, view.w));
      view.h = view.w * whole.h / whole.w;
      view.x = Math.min(whole.x + whole.w - view.w, Math.max(whole.x, view.x));
      view.y = Math.min(whole.y + whole.h - view.h, Math.max(whole.y, view.y));
      svg.setAttribute('viewBox', [view.x, view.y, view.w, view.h].map(function (v) { return Math.round(v * 100) / 100; }).join(' '));
      figure.setAttribute('data-zoom', (whole.w / view.w).toFixed(2));
      scaleLabels(whole.w / view.w);
    }

    // Zoom by `factor` (> 1 in) keeping the map point under (cx, cy) (user units) still.
    function zoom(factor, cx, cy) {
      if (cx === undefined) { cx = view.x + view.w / 2; cy = view.y + view.h / 2; }
      var w = Math.min(whole.w, Math.max(whole.w / MAX_ZOOM, view.w / factor));
      var k = w / view.w;
      view.x = cx - (cx - view.x) * k;
      view.y = cy - (cy - view.y) * k;
      view.w = w;
      apply();
    }

    // Screen px → map units, for the current view.
    function toMap(clientX, clientY) {
      var r = svg.getBoundingClientRect();
      return { x: view.x + (clientX - r.left) * view.w / r.width, y: view.y + (clientY - r.top) * view.h / r.height };
    }

    var bar = document.createElement('div');
    bar.className = 'map-zoom';
    bar.setAttribute('role', 'group');
    bar.setAttribute('aria-label', 'Zoom the map');
    [['+', 'Zoom in', function () { zoom(STEP); }],
      ['\u2212', 'Zoom out', function () { zoom(1 / STEP); }],
      ['\u2922', 'Whole map', function () { view = { x: whole.x, y: whole.y, w: whole.w, h: whole.h }; apply(); }]
    ].forEach(function (spec) {
      var button = document.createElement('button');
      button.type = 'button';
      button.textContent = spec[0];
      button.title = spec[1];
      button.setAttribute('aria-label', spec[1]);
      button.setAttribute('data-zoom-action', spec[1].toLowerCase().replace(/ /g, '-'));
      button.addEventListener('click', spec[2]);
      bar.appendChild(button);
    });
    figure.insertBefore(bar, svg);

    svg.addEventListener('wheel', function (e) {
      e.preventDefault();
      var p = toMap(e.clientX, e.clientY);
      zoom(Math.exp(-e.deltaY * (e.deltaMode === 1 ? 0.05 : 0.002)), p.x, p.y);
    }, { passive: false });

    // Pointers down on the map: one drags, two pinch.
    var pointers = {};
    var dragged = false;
    var start = null;
    function count() { return Object.keys(pointers).length; }
    function pair() {
      var ids = Object.keys(pointers);
      var a = pointers[ids[0]], c = pointers[ids[1]];
      return { d: Math.hypot(a.x - c.x, a.y - c.y), mx: (a.x + c.x) / 2, my: (a.y + c.y) / 2 };
    }
    svg.addEventListener('pointerdown', function (e) {
      pointers[e.pointerId] = { x: e.clientX, y: e.clientY };
      dragged = false;
      start = { view: { x: view.x, y: view.y, w: view.w, h: view.h }, x: e.clientX, y: e.clientY, pair: count() === 2 ? pair() : null };
    });
    svg.addEventListener('pointermove', function (e) {
      if (!pointers[e.pointerId] || !start) return;
      pointers[e.pointerId] = { x: e.clientX, y: e.clientY };
      var r = svg.getBoundingClientRect();
      if (count() === 2) {
        if (!start.pair) { start = { view: { x: view.x, y: view.y, w: view.w, h: view.h }, pair: pair() }; return; }
        var now = pair();
        dragged = true;
        view = { x: start.view.x, y: start.view.y, w: start.view.w, h: start.view.h };
        var p = { x: view.x + (start.pair.mx - r.left) * view.w / r.width, y: view.y + (start.pair.my - r.top) * view.h / r.height };
        zoom(now.d / Math.max(start.pair.d, 1), p.x, p.y);
        // Follow the fingers' midpoint as well.
        view.x -= (now.mx - start.pair.mx) * view.w / r.width;
        view.y -= (now.my - start.pair.my) * view.h / r.height;
        apply();
        return;
      }
      var dx = e.clientX - start.x, dy = e.clientY - start.y;
      if (!dragged && Math.hypot(dx, dy) < 5) return;
      if (!dragged && svg.setPointerCapture) svg.setPointerCapture(e.pointerId);
      dragged = true;
      view.x = start.view.x - dx * view.w / r.width;
      view.y = start.view.y - dy * view.h / r.height;
      apply();
    });
    function up(e) {
      delete pointers[e.pointerId];
      if (count() === 1) {
        var id = Object.keys(pointers)[0];
        start = { view: { x: view.x, y: view.y, w: view.w, h: view.h }, x: pointers[id].x, y: pointers[id].y, pair: null };
      } else if (count() === 0) start = null;
    }
    svg.addEventListener('pointerup', up);
    svg.addEventListener('pointercancel', up);
    // A drag or pinch ends with a click on whatever is under the finger: that is not a click.
    svg.addEventListener('click', function (e) {
      if (dragged) { e.stopImmediatePropagation(); e.preventDefault(); dragged = false; }
    }, true);
    apply();
    // The screen size of the map changes with the window: the labels' share of it too.
    window.addEventListener('resize', function () { scaleLabels(whole.w / view.w); });
  }

  document.querySelectorAll('figure.map').forEach(setup);
})();
