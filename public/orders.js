// Steady as She Goes! — plotting a route on the orders page's map.
// Clicking a node appends it to the MOVE line of the fleet chosen in the select; the
// route of that fleet is drawn on the map as the textarea changes. Without JavaScript
// the player types the same orders into the textarea.
(function () {
  'use strict';
  var figure = document.querySelector('[data-plot]');
  var svg = figure && figure.querySelector('svg');
  var select = document.getElementById('fleet-select');
  var textarea = document.getElementById('orders-text');
  var status = document.querySelector('[data-plot-status]');
  if (!svg || !select || !textarea) return;
  var SVGNS = 'http://www.w3.org/2000/svg';

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
    nodes[id] = { id: id, name: name, x: x, y: y, el: g };
    byName[norm(name)] = id;
    byName[norm(id)] = id;
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

  function addStep(nodeId) {
    var fleet = chosen();
    if (!fleet) return;
    var node = nodes[nodeId];
    var lines = linesOf();
    var i = fleetLine(lines, fleet);
    var step = quote(node.name);
    var route = i >= 0 ? routeOf(lines[i]) : [];
    var last = route.length ? route[route.length - 1] : fleet.at;
    if (last === nodeId) { say(fleet.name + ' is already there: choose the next sea area or port.'); return; }
    if (i < 0) {
      // Before an END line, if there is one; else at the end.
      var end = lines.findIndex(function (l) { return /^\s*END\s*$/i.test(l); });
      while (end < 0 && lines.length && lines[lines.length - 1].trim() === '') lines.pop();
      if (end >= 0) lines.splice(end, 0, newLine(fleet, step));
      else lines.push(newLine(fleet, step));
    } else if (/\bMOVE\b/i.test(lines[i])) {
      var m = /^(.*?)(\s+HARBOR)?\s*$/i.exec(lines[i]);
      var body = m[1];
      var harbor = m[2] && !/\bLEAVE\s+HARBOR\s*$/i.test(lines[i]) ? m[2] : '';
      lines[i] = body + ' ' + step + harbor;
    } else if (/\bLEAVE\s+HARBOR\s*$/i.test(lines[i])) {
      lines[i] = lines[i].replace(/\s*$/, '') + ' MOVE ' + step;
    } else {
      lines[i] = newLine(fleet, step); // HOLD becomes a move
    }
    textarea.value = lines.join('\n') + (lines.length && lines[lines.length - 1] !== '' ? '\n' : '');
    say('Added ' + node.name + ' to ' + fleet.name + '\u2019s route.');
    draw();
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
    var harbor = toks.length && /^harbor$/i.test(toks[toks.length - 1].text) ? toks.pop() : null;
    if (!all) toks.pop();
    if (all || toks.length === 0) lines.splice(i, 1);
    else lines[i] = head + ' ' + toks.map(function (t) { return t.text; }).join(' ') + (harbor ? ' HARBOR' : '');
    textarea.value = lines.join('\n');
    say(all ? 'Cleared ' + fleet.name + '\u2019s route.' : 'Removed the last step.');
    draw();
  }

  function say(text) { if (status) status.textContent = text; }

  var line = null;
  function draw() {
    var fleet = chosen();
    var server = svg.querySelector('polyline.route');
    if (server) server.remove();
    Object.keys(nodes).forEach(function (id) { nodes[id].el.classList.remove('on-route'); });
    if (line) { line.remove(); line = null; }
    if (!fleet) return;
    var lines = linesOf();
    var i = fleetLine(lines, fleet);
    var ids = [fleet.at].concat(i >= 0 ? routeOf(lines[i]) : []).filter(function (id) { return id && nodes[id]; });
    ids.forEach(function (id) { nodes[id].el.classList.add('on-route'); });
    if (ids.length < 2) return;
    line = document.createElementNS(SVGNS, 'polyline');
    line.setAttribute('class', 'plotted');
    line.setAttribute('points', ids.map(function (id) { return nodes[id].x + ',' + nodes[id].y; }).join(' '));
    line.setAttribute('fill', 'none');
    line.setAttribute('stroke', '#b5451b');
    line.setAttribute('stroke-width', '3');
    line.setAttribute('stroke-dasharray', '6 3');
    line.setAttribute('stroke-linecap', 'round');
    var nodesGroup = svg.querySelector('g.nodes');
    svg.insertBefore(line, nodesGroup);
  }

  svg.addEventListener('click', function (e) {
    var g = e.target.closest && e.target.closest('g.node[data-node]');
    if (g) addStep(g.getAttribute('data-node'));
  });
  select.addEventListener('change', function () { say(''); draw(); });
  textarea.addEventListener('input', draw);
  var undoBtn = document.querySelector('[data-plot-undo]');
  var clearBtn = document.querySelector('[data-plot-clear]');
  if (undoBtn) undoBtn.addEventListener('click', function () { undo(false); });
  if (clearBtn) clearBtn.addEventListener('click', function () { undo(true); });
  draw();
})();
