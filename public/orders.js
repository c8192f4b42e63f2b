// Steady as She Goes! — plotting a route on the orders page's map.
// Clicking a node appends it to the MOVE line of the fleet chosen in the select; the
// route of that fleet is drawn on the map as the textarea changes. Without JavaScript
// the player types the same orders into the textarea.
//
// Which node a click means: the one whose visible mark (dot, port, box) is nearest to where
// the pointer went down, within REACH screen pixels (more for a finger than a mouse), so
// neighbouring marks never steal each other's clicks and a zoomed map is no different. The
// pointerdown position is used, not the click's: on a touch screen Chromium moves a tap's
// click towards a nearby target (and drops a quick second tap). A port whose harbor the fleet may enter is plotted with
// HARBOR; clicking it again while it ends the route takes the entry back out.
(function () {
  'use strict';
  var figure = document.querySelector('[data-plot]');
  var svg = figure && figure.querySelector('svg');
  var select = document.getElementById('fleet-select');
  var textarea = document.getElementById('orders-text');
  var status = document.querySelector('[data-plot-status]');
  if (!svg || !select || !textarea) return;
  var SVGNS = 'http://www.w3.org/2000/svg';
  var REACH = { mouse: 16, pen: 16, touch: 28 };
  var enterable = {};
  (figure.getAttribute('data-enterable') || '').split(/\s+/).forEach(function (id) { if (id) enterable[id] = true; });

  function norm(s) {
    return String(s).toLowerCase().replace(/[.'\u2019]/g, '').replace(/[\s_-]+/g, ' ').trim();
  }

  // The map's nodes: id -> { name, x, y, el }, and loose names -> id.
  var nodes = {};
  var byName = {};
  svg.querySelectorAll('g.node[data-node]').forEach(function (g) {
    var id = g.getAttribute('data-node');
    var title = g.querySelector('title');
    var shape = g.querySelector('circle.port, circle.sea, rect.box');
    var x = 0, y = 0;
    if (shape && shape.tagName.toLowerCase() === 'rect') {
      x = parseFloat(shape.getAttribute('x')) + parseFloat(shape.getAttribute('width')) / 2;
      y = parseFloat(shape.getAttribute('y')) + parseFloat(shape.getAttribute('height')) / 2;
    } else if (shape) {
      x = parseFloat(shape.getAttribute('cx'));
      y = parseFloat(shape.getAttribute('cy'));
    }
    var name = title ? title.textContent : id;
    nodes[id] = { id: id, name: name, x: x, y: y, el: g, mark: shape, port: g.getAttribute('data-kind') === 'port' };
    byName[norm(name)] = id;
    byName[norm(id)] = id;
  });

  // The Lesser Antilles inset draws some places a second time, larger: a click on either
  // mark is that place. insetOf: id -> the inset's mark.
  var insetGroup = svg.querySelector('g.inset');
  var insetOf = {};
  svg.querySelectorAll('g.inset-node[data-inset-node]').forEach(function (g) {
    var id = g.getAttribute('data-inset-node');
    var shape = g.querySelector('circle.port, circle.sea');
    if (nodes[id] && shape) insetOf[id] = { el: g, mark: shape, x: parseFloat(shape.getAttribute('cx')), y: parseFloat(shape.getAttribute('cy')) };
  });

  function chosen() {
    var o = select.options[select.selectedIndex];
    if (!o) return null;
    return { id: o.value, name: o.getAttribute('data-name'), at: o.getAttribute('data-at'), harbor: o.getAttribute('data-harbor') === 'yes' };
  }

  function quote(name) {
    return /^[A-Za-z0-9-]+$/.test(name) ? name : '"' + name.replace(/"/g, '') + '"';
  }

  var FLEET_LINE = /^\s*FLEET\s+(?:"([^"]*)"|([^:]+?))\s*:\s*(.*)$/i;

  function linesOf() { return textarea.value.split('\n'); }

  // Index of the line that carries this fleet's movement (or its HOLD), -1 if none.
  function fleetLine(lines, fleet) {
    var any = -1;
    for (var i = 0; i < lines.length; i++) {
      var m = FLEET_LINE.exec(lines[i]);
      if (!m) continue;
      var who = norm(m[1] !== undefined ? m[1] : m[2]);
      if (who !== norm(fleet.name) && who !== norm(fleet.id)) continue;
      if (/\b(MOVE|LEAVE\s+HARBOR|HOLD)\b/i.test(m[3])) return i;
      if (any < 0) any = i;
    }
    return any >= 0 && /\b(MOVE|LEAVE\s+HARBOR|HOLD)\b/i.test(lines[any]) ? any : -1;
  }

  function tokens(text) {
    var out = [];
    var re = /"([^"]*)"|(\S+)/g;
    var m;
    while ((m = re.exec(text))) out.push({ text: m[0], word: m[1] !== undefined ? m[1] : m[2], index: m.index });
    return out;
  }

  // The nodes named after MOVE on a line (ids), without a closing HARBOR.
  function routeOf(line) {
    var at = line.search(/\bMOVE\b/i);
    if (at < 0) return [];
    var toks = tokens(line.slice(at + 4));
    if (toks.length && /^harbor$/i.test(toks[toks.length - 1].text)) toks.pop();
    return toks.map(function (t) { return byName[norm(t.word)] || null; });
  }

  function newLine(fleet, step) {
    return 'FLEET ' + quote(fleet.name) + ': ' + (fleet.harbor ? 'LEAVE HARBOR ' : '') + 'MOVE ' + step;
  }

  // The route's line, the words after MOVE, and whether it ends in HARBOR.
  function splitMove(line) {
    var at = line.search(/\bMOVE\b/i);
    var toks = tokens(line.slice(at + 4));
    var harbor = toks.length > 0 && /^harbor$/i.test(toks[toks.length - 1].text);
    if (harbor) toks.pop();
    return { head: line.slice(0, at + 4), steps: toks.map(function (t) { return t.text; }), harbor: harbor };
  }

  function joinMove(parts) {
    return parts.head + ' ' + parts.steps.join(' ') + (parts.harbor ? ' HARBOR' : '');
  }

  function addStep(nodeId) {
    var fleet = chosen();
    if (!fleet) return;
    var node = nodes[nodeId];
    var lines = linesOf();
    var i = fleetLine(lines, fleet);
    var step = quote(node.name);
    var route = i >= 0 ? routeOf(lines[i]) : [];
    var last = route.length ? route[route.length - 1] : fleet.at;
    var intoHarbor = node.port && enterable[nodeId] === true;
    var said;
    if (last === nodeId) {
      if (route.length && intoHarbor && /\bMOVE\b/i.test(lines[i])) {
        // The port already ends the route: a click there enters its harbor or takes the entry back out.
        var p = splitMove(lines[i]);
        p.harbor = !p.harbor;
        lines[i] = joinMove(p);
        said = p.harbor ? fleet.name + ' now enters the harbor of ' + node.name + ' at the end of its route.'
          : fleet.name + ' now ends its route at sea off ' + node.name + ' (not in harbor).';
      } else {
        say(fleet.name + (route.length ? '\u2019s route already ends at ' : ' is already at ') + node.name + ': choose the next sea area or port.');
        return;
      }
    } else if (i < 0) {
      // Before an END line, if there is one; else at the end.
      var end = lines.findIndex(function (l) { return /^\s*END\s*$/i.test(l); });
      while (end < 0 && lines.length && lines[lines.length - 1].trim() === '') lines.pop();
      var fresh = newLine(fleet, step) + (intoHarbor ? ' HARBOR' : '');
      if (end >= 0) lines.splice(end, 0, fresh);
      else lines.push(fresh);
    } else if (/\bMOVE\b/i.test(lines[i])) {
      // A harbor entered on the way is left again: HARBOR only ever ends a route.
      var q = splitMove(lines[i]);
      q.steps.push(step);
      q.harbor = intoHarbor;
      lines[i] = joinMove(q);
    } else if (/\bLEAVE\s+HARBOR\s*$/i.test(lines[i])) {
      lines[i] = lines[i].replace(/\s*$/, '') + ' MOVE ' + step + (intoHarbor ? ' HARBOR' : '');
    } else {
      lines[i] = newLine(fleet, step) + (intoHarbor ? ' HARBOR' : ''); // HOLD becomes a move
    }
    textarea.value = lines.join('\n') + (lines.length && lines[lines.length - 1] !== '' ? '\n' : '');
    say(said || 'Added ' + node.name + ' to ' + fleet.name + '\u2019s route' + (intoHarbor ? ', entering its harbor (click it again to stay at sea).' : '.'));
    draw();
  }

  // Screen position of a node's visible mark.
  function markCentre(node) {
    var r = (node.mark || node.el).getBoundingClientRect();
    return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
  }

  // The node whose mark is nearest to (x, y) on the screen, within `reach` px; null if none.
  function nearest(x, y, reach) {
    var best = null, bestD = reach;
    function consider(id, mark) {
      var c = markCentre(mark);
      var d = Math.hypot(c.x - x, c.y - y);
      if (d <= bestD) { best = id; bestD = d; }
    }
    Object.keys(nodes).forEach(function (id) { consider(id, nodes[id]); });
    Object.keys(insetOf).forEach(function (id) { consider(id, insetOf[id]); });
    return best;
  }

  function undo(all) {
    var fleet = chosen();
    if (!fleet) return;
    var lines = linesOf();
    var i = fleetLine(lines, fleet);
    if (i < 0 || !/\bMOVE\b/i.test(lines[i])) { say('No route plotted for ' + fleet.name + '.'); return; }
    var at = lines[i].search(/\bMOVE\b/i);
    var head = lines[i].slice(0, at + 4);
    var toks = tokens(lines[i].slice(at + 4));
    if (toks.length && /^harbor$/i.test(toks[toks.length - 1].text)) toks.pop();
    if (!all) toks.pop();
    if (all || toks.length === 0) lines.splice(i, 1);
    // The entry belonged to the step taken away: the route now ends at sea.
    else lines[i] = head + ' ' + toks.map(function (t) { return t.text; }).join(' ');
    textarea.value = lines.join('\n');
    say(all ? 'Cleared ' + fleet.name + '\u2019s route.' : 'Removed the last step.');
    draw();
  }

  function say(text) { if (status) status.textContent = text; }

  // Every fleet of the select, as chosen() gives one.
  function allFleets() {
    return Array.prototype.map.call(select.options, function (o) {
      return { id: o.value, name: o.getAttribute('data-name'), at: o.getAttribute('data-at'), harbor: o.getAttribute('data-harbor') === 'yes' };
    }).filter(function (f) { return f.id; });
  }

  // The server draws each fleet's checked move as an arrow with the phase it reaches each
  // place in (g.plotted-order, data-route). As the text changes, a fleet whose route no
  // longer matches its arrow is drawn here instead, dashed with an arrowhead, until the
  // next Check gives it its phases again.
  var drawn = [];
  function routeLine(points, chosenOne) {
    var g = document.createElementNS(SVGNS, 'g');
    g.setAttribute('class', 'plotted' + (chosenOne ? ' chosen' : ''));
    g.setAttribute('pointer-events', 'none');
    var l = document.createElementNS(SVGNS, 'polyline');
    l.setAttribute('class', 'plotted');
    l.setAttribute('points', points.map(function (p) { return p.x + ',' + p.y; }).join(' '));
    l.setAttribute('fill', 'none');
    l.setAttribute('stroke', '#b5451b');
    l.setAttribute('stroke-width', chosenOne ? '3' : '2');
    l.setAttribute('stroke-dasharray', '6 3');
    l.setAttribute('stroke-linecap', 'round');
    g.appendChild(l);
    var a = points[points.length - 2], b = points[points.length - 1];
    var len = Math.hypot(b.x - a.x, b.y - a.y) || 1, ux = (b.x - a.x) / len, uy = (b.y - a.y) / len;
    var head = document.createElementNS(SVGNS, 'polygon');
    head.setAttribute('class', 'arrowhead');
    head.setAttribute('points', [[b.x, b.y], [b.x - ux * 9 - uy * 5, b.y - uy * 9 + ux * 5], [b.x - ux * 9 + uy * 5, b.y - uy * 9 - ux * 5]]
      .map(function (q) { return q[0].toFixed(1) + ',' + q[1].toFixed(1); }).join(' '));
    head.setAttribute('fill', '#b5451b');
    g.appendChild(head);
    drawn.push(g);
    return g;
  }
  function draw() {
    var fleet = chosen();
    Object.keys(nodes).forEach(function (id) { nodes[id].el.classList.remove('on-route'); });
    Object.keys(insetOf).forEach(function (id) { insetOf[id].el.classList.remove('on-route'); });
    drawn.forEach(function (l) { l.remove(); });
    drawn = [];
    var lines = linesOf();
    var firstMark = insetGroup && insetGroup.querySelector('g.inset-node');
    allFleets().forEach(function (f) {
      var i = fleetLine(lines, f);
      var ids = [f.at].concat(i >= 0 ? routeOf(lines[i]) : []).filter(function (id) { return id && nodes[id]; });
      var isChosen = fleet && f.id === fleet.id;
      if (isChosen) {
        ids.forEach(function (id) {
          nodes[id].el.classList.add('on-route');
          if (insetOf[id]) insetOf[id].el.classList.add('on-route');
        });
      }
      var arrow = svg.querySelector('g.plotted-order[data-fleet="' + f.id.replace(/"/g, '') + '"]');
      var same = arrow && arrow.getAttribute('data-route') === ids.join(' ');
      if (arrow) arrow.style.display = same ? '' : 'none';
      if (ids.length < 2) return;
      if (!same) svg.insertBefore(routeLine(ids.map(function (id) { return nodes[id]; }), isChosen), svg.querySelector('g.nodes'));
      // On the inset (which the server's arrows leave out), each stretch of the route that
      // runs between places it shows.
      if (!insetGroup) return;
      var run = [];
      ids.concat([null]).forEach(function (id) {
        if (id && insetOf[id]) { run.push(insetOf[id]); return; }
        if (run.length > 1) insetGroup.insertBefore(routeLine(run, isChosen), firstMark);
        run = [];
      });
    });
  }

  // A tap or click is read at pointerup, from where the pointer went down: not from the
  // click event, which Chromium moves on a touch screen and drops for a quick second tap
  // nearby (a double tap). A pointer that moved (a drag) or a second finger (a pinch) is
  // the map being moved, not a place chosen.
  var down = null;
  var pressed = {};
  svg.addEventListener('pointerdown', function (e) {
    // The primary pointer is the first of a new touch, or the mouse: nothing else is down then.
    if (e.isPrimary) pressed = {};
    pressed[e.pointerId] = true;
    down = Object.keys(pressed).length === 1 ? { id: e.pointerId, x: e.clientX, y: e.clientY, type: e.pointerType || 'mouse', label: labelNode(e.target), moved: false } : null;
  });
  svg.addEventListener('pointermove', function (e) {
    if (down && e.pointerId === down.id && Math.hypot(e.clientX - down.x, e.clientY - down.y) > 6) down.moved = true;
  });
  function lifted(e) {
    delete pressed[e.pointerId];
    var at = down;
    if (!at || e.pointerId !== at.id) return;
    down = null;
    if (at.moved || e.type === 'pointercancel' || (e.button !== undefined && e.button > 0)) return;
    var id = nearest(at.x, at.y, REACH[at.type] || REACH.mouse) || at.label;
    if (id) addStep(id);
    else if (chosen()) say('No sea area or port there: click on or next to a dot.');
  }
  svg.addEventListener('pointerup', lifted);
  svg.addEventListener('pointercancel', lifted);

  // A click on a place's written name, when no mark is near: that place.
  function labelNode(target) {
    if (!target || !target.closest || target.tagName.toLowerCase() !== 'text') return null;
    var g = target.closest('g.node[data-node]');
    if (g) return g.getAttribute('data-node');
    var inset = target.closest('g.inset-node[data-inset-node]');
    return inset && nodes[inset.getAttribute('data-inset-node')] ? inset.getAttribute('data-inset-node') : null;
  }
  select.addEventListener('change', function () { say(''); draw(); });
  textarea.addEventListener('input', draw);
  var undoBtn = document.querySelector('[data-plot-undo]');
  var clearBtn = document.querySelector('[data-plot-clear]');
  if (undoBtn) undoBtn.addEventListener('click', function () { undo(false); });
  if (clearBtn) clearBtn.addEventListener('click', function () { undo(true); });
  draw();
})();
