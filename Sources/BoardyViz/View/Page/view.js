"use strict";
(function () {
  const SVGNS = "http://www.w3.org/2000/svg";
  const $ = (id) => document.getElementById(id);
  function fail(e) {
    const box = $("error");
    box.style.display = "block";
    box.textContent = "The viewer failed: " + (e && e.message ? e.message : String(e));
    console.error(e);
  }
  try {
    const D = JSON.parse($("data").textContent);
    const N = D.n;
    // Columns, decoded once (seq and t are deltas).
    const seq = new Float64Array(N), t = new Float64Array(N);
    const lane = Int32Array.from(D.lane), mark = Int32Array.from(D.mark), kind = Int32Array.from(D.kind);
    const mbc = Int32Array.from(D.mb), rest = Int32Array.from(D.rest), causeDelta = Float64Array.from(D.cause);
    let acc = 0, accT = 0, sorted = true;
    for (let i = 0; i < N; i++) {
      acc += D.seq[i]; seq[i] = acc;
      accT += D.t[i]; t[i] = accT;
      if (i > 0 && t[i] < t[i - 1]) sorted = false;
    }
    D.seq = D.t = D.lane = D.mark = D.kind = D.mb = D.rest = D.cause = null;
    let seqIncreasing = true;
    for (let i = 1; i < N; i++) if (seq[i] <= seq[i - 1]) { seqIncreasing = false; break; }
    let seqMap = null;
    if (!seqIncreasing) { seqMap = new Map(); for (let i = 0; i < N; i++) if (!seqMap.has(seq[i])) seqMap.set(seq[i], i); }
    function indexOfSeq(q) {
      if (seqMap) { const v = seqMap.get(q); return v === undefined ? -1 : v; }
      let lo = 0, hi = N - 1;
      while (lo <= hi) { const m = (lo + hi) >> 1; if (seq[m] < q) lo = m + 1; else if (seq[m] > q) hi = m - 1; else return m; }
      return -1;
    }
    const cause = new Int32Array(N);
    for (let i = 0; i < N; i++) cause[i] = causeDelta[i] ? indexOfSeq(seq[i] - causeDelta[i]) : -1;
    const lanes = D.lanes, L = lanes.length, marks = D.marks;

    function fmtT(us) {
      if (us % 1e6 === 0) return String(us / 1e6);
      return (us / 1e6).toFixed(6).replace(/0+$/, "");
    }
    function line(i) {
      const r = D.rests[rest[i]], tail = D.restTails[rest[i]];
      const c = causeDelta[i] ? ',"cause":' + (seq[i] - causeDelta[i]) : "";
      return '{"seq":' + seq[i] + ',"t":' + fmtT(t[i]) + ',"kind":' + JSON.stringify(D.kinds[kind[i]]) + ',"mb":' +
        JSON.stringify(D.mbs[mbc[i]]) + r.slice(0, r.length - tail) + c + r.slice(r.length - tail) + "}";
    }
    function shortRest(i) { const r = D.rests[rest[i]]; return r.length > 1 ? r.slice(1) : ""; }

    $("title").textContent = "boardy-viz · " + D.title;
    document.title = "boardy-viz · " + D.title;
    $("meta").textContent = N.toLocaleString("en") + " events · " + L + " lanes" +
      (D.header && D.header.definition ? " · definition " + String(D.header.definition).slice(0, 19) + "…" : "");

    // ----- Selection and cause chain -----
    let selected = -1;
    let chain = [];
    const inChain = new Uint8Array(N);
    function select(i, scroll) {
      for (const c of chain) inChain[c] = 0;
      chain = [];
      selected = i;
      if (i >= 0) {
        let c = i, guard = 0;
        while (c >= 0 && guard++ <= N) { chain.push(c); inChain[c] = 1; c = cause[c]; }
      }
      showDetail();
      renderRows();
      if (scroll && i >= 0) scrollToEvent(i);
      drawTimeline();
    }
    function describe(i) {
      return "#" + seq[i] + "  t=" + fmtT(t[i]) + "s  " + D.kinds[kind[i]] + "  " + lanes[lane[i]];
    }
    function showDetail() {
      const pre = $("json"), ol = $("chain");
      ol.textContent = "";
      if (selected < 0) { pre.textContent = "Click a row or a mark."; pre.classList.add("muted"); return; }
      pre.classList.remove("muted");
      pre.textContent = line(selected);
      for (const c of chain.slice().reverse()) {
        const li = document.createElement("li");
        li.textContent = describe(c);
        if (c === selected) li.className = "selected";
        li.addEventListener("click", () => select(c, true));
        ol.appendChild(li);
      }
    }

    // ----- Filters and the table (virtual scrolling) -----
    const ROW = 22;
    let shown = new Int32Array(N);
    for (let i = 0; i < N; i++) shown[i] = i;
    let shownCount = N;
    const laneSel = $("f-lane"), kindSel = $("f-kind");
    laneSel.appendChild(new Option("all boards and lanes", "-1"));
    lanes.forEach((name, k) => laneSel.appendChild(new Option(name, String(k))));
    kindSel.appendChild(new Option("all kinds", "-1"));
    D.kinds.forEach((name, k) => kindSel.appendChild(new Option(name, String(k))));
    function applyFilters() {
      const q = $("search").value.trim().toLowerCase();
      const ln = parseInt(laneSel.value, 10), kd = parseInt(kindSel.value, 10);
      const fromS = parseFloat($("f-from").value), toS = parseFloat($("f-to").value);
      const from = isNaN(fromS) ? -Infinity : fromS * 1e6, to = isNaN(toS) ? Infinity : toS * 1e6;
      let laneOK = null, kindOK = null, mbOK = null, restOK = null, seqQ = -1;
      if (q) {
        laneOK = Uint8Array.from(lanes, (s) => s.toLowerCase().includes(q) ? 1 : 0);
        kindOK = Uint8Array.from(D.kinds, (s) => s.toLowerCase().includes(q) ? 1 : 0);
        mbOK = Uint8Array.from(D.mbs, (s) => s.toLowerCase().includes(q) ? 1 : 0);
        restOK = Uint8Array.from(D.rests, (s) => s.toLowerCase().includes(q) ? 1 : 0);
        const m = /^#?(\d+)$/.exec(q);
        if (m) seqQ = Number(m[1]);
      }
      let n = 0;
      for (let i = 0; i < N; i++) {
        if (ln >= 0 && lane[i] !== ln) continue;
        if (kd >= 0 && kind[i] !== kd) continue;
        if (t[i] < from || t[i] > to) continue;
        if (q && !(laneOK[lane[i]] || kindOK[kind[i]] || mbOK[mbc[i]] || restOK[rest[i]] || seq[i] === seqQ)) continue;
        shown[n++] = i;
      }
      shownCount = n;
      // The timeline shows what the table shows.
      shownMask.fill(0);
      for (let k = 0; k < n; k++) shownMask[shown[k]] = 1;
      $("count").textContent = n.toLocaleString("en") + " of " + N.toLocaleString("en") + " events";
      $("spacer").style.height = (n * ROW) + "px";
      renderRows();
      drawTimeline();
    }
    const scroller = $("scroller"), rowsBox = $("rows");
    const pool = [];
    function rowElement(k) {
      while (pool.length <= k) {
        const r = document.createElement("div");
        r.className = "row";
        for (let c = 0; c < 6; c++) r.appendChild(document.createElement("span"));
        const slot = pool.length;
        r.addEventListener("click", () => { if (pool[slot].index >= 0) select(pool[slot].index, false); });
        rowsBox.appendChild(r);
        pool.push({ el: r, index: -1 });
      }
      return pool[k];
    }
    function renderRows() {
      const first = Math.max(0, Math.floor(scroller.scrollTop / ROW) - 5);
      const count = Math.min(shownCount - first, Math.ceil(scroller.clientHeight / ROW) + 12);
      rowsBox.style.top = (first * ROW) + "px";
      for (let k = 0; k < Math.max(count, 0); k++) {
        const i = shown[first + k], slot = rowElement(k), cells = slot.el.children;
        slot.index = i;
        slot.el.style.display = "";
        cells[0].textContent = String(seq[i]);
        cells[1].textContent = fmtT(t[i]);
        cells[2].textContent = D.mbs[mbc[i]];
        cells[3].textContent = lanes[lane[i]];
        cells[4].textContent = D.kinds[kind[i]];
        cells[5].textContent = shortRest(i);
        slot.el.classList.toggle("selected", i === selected);
        slot.el.classList.toggle("chain", i !== selected && inChain[i] === 1);
      }
      for (let k = Math.max(count, 0); k < pool.length; k++) { pool[k].el.style.display = "none"; pool[k].index = -1; }
    }
    function scrollToEvent(i) {
      let lo = 0, hi = shownCount - 1, at = -1;
      while (lo <= hi) { const m = (lo + hi) >> 1; if (shown[m] < i) lo = m + 1; else if (shown[m] > i) hi = m - 1; else { at = m; break; } }
      if (at < 0) return;
      const top = at * ROW;
      if (top < scroller.scrollTop || top > scroller.scrollTop + scroller.clientHeight - ROW) scroller.scrollTop = Math.max(0, top - 3 * ROW);
      renderRows();
    }
    let scrollPending = false;
    scroller.addEventListener("scroll", () => {
      if (scrollPending) return;
      scrollPending = true;
      requestAnimationFrame(() => { scrollPending = false; renderRows(); });
    });
    let searchTimer = 0;
    $("search").addEventListener("input", () => { clearTimeout(searchTimer); searchTimer = setTimeout(applyFilters, 120); });
    for (const id of ["f-lane", "f-kind", "f-from", "f-to"]) $(id).addEventListener("change", applyFilters);
    document.addEventListener("keydown", (e) => {
      if (e.key === "/" && document.activeElement !== $("search")) { e.preventDefault(); $("search").focus(); }
      if (e.key === "Escape") select(-1, false);
    });

    // ----- The timeline (canvas; x is time; zoom and pan) -----
    const canvas = $("timeline"), ctx = canvas.getContext("2d");
    const LABEL_W = 210, AXIS_H = 28, ROW_H = 18;
    const tMin = N ? t[0] : 0;
    let tMax = 0;
    for (let i = 0; i < N; i++) if (t[i] > tMax) tMax = t[i];
    let lo0 = sorted ? tMin : Infinity;
    if (!sorted) for (let i = 0; i < N; i++) if (t[i] < lo0) lo0 = t[i];
    if (!N) lo0 = 0;
    const span0 = Math.max(tMax - lo0, 1e6);
    let v0 = lo0 - span0 * 0.02, v1 = lo0 + span0 * 1.04;
    // Same-instant events on a lane stack in a narrow band: their rank within it, capped.
    const rank = new Uint8Array(N);
    { const last = new Float64Array(L).fill(-1), count = new Uint8Array(L);
      for (let i = 0; i < N; i++) { const l = lane[i]; if (t[i] === last[l]) { if (count[l] < 8) count[l]++; } else { count[l] = 0; last[l] = t[i]; } rank[i] = count[l]; } }
    const byLane = Array.from({ length: L }, () => []);
    for (let i = 0; i < N; i++) byLane[lane[i]].push(i);
    const laneIdx = byLane.map((a) => Int32Array.from(a));
    const shownMask = new Uint8Array(N).fill(1);
    function plotW() { return canvas.clientWidth - LABEL_W - 12; }
    function xOf(us) { return LABEL_W + (us - v0) / (v1 - v0) * plotW(); }
    function niceStep(raw) {
      const p = Math.pow(10, Math.floor(Math.log10(raw)));
      for (const m of [1, 2, 5, 10]) if (m * p >= raw) return m * p;
      return 10 * p;
    }
    function shape(c, m, x, y, r) {
      const s = marks[m] || marks[0];
      c.beginPath();
      switch (s.shape) {
        case "square": case "box": case "Msquare": c.rect(x - r, y - r, 2 * r, 2 * r); break;
        case "diamond": c.moveTo(x, y - r - 1); c.lineTo(x + r + 1, y); c.lineTo(x, y + r + 1); c.lineTo(x - r - 1, y); c.closePath(); break;
        case "triangle": c.moveTo(x, y - r - 1); c.lineTo(x + r + 1, y + r); c.lineTo(x - r - 1, y + r); c.closePath(); break;
        case "invtriangle": c.moveTo(x, y + r + 1); c.lineTo(x + r + 1, y - r); c.lineTo(x - r - 1, y - r); c.closePath(); break;
        case "star": for (let k = 0; k < 10; k++) { const a = -Math.PI / 2 + k * Math.PI / 5, rr = k % 2 ? r * 0.5 : r + 2; c.lineTo(x + rr * Math.cos(a), y + rr * Math.sin(a)); } c.closePath(); break;
        case "octagon": case "doubleoctagon": case "hexagon": { const n = s.shape === "hexagon" ? 6 : 8; for (let k = 0; k < n; k++) { const a = Math.PI / n + k * 2 * Math.PI / n; c.lineTo(x + (r + 1) * Math.cos(a), y + (r + 1) * Math.sin(a)); } c.closePath(); break; }
        case "house": c.moveTo(x, y - r - 1); c.lineTo(x + r, y - r / 3); c.lineTo(x + r, y + r); c.lineTo(x - r, y + r); c.lineTo(x - r, y - r / 3); c.closePath(); break;
        case "invtrapezium": c.moveTo(x - r - 1, y - r); c.lineTo(x + r + 1, y - r); c.lineTo(x + r / 2, y + r); c.lineTo(x - r / 2, y + r); c.closePath(); break;
        default: c.arc(x, y, r, 0, 2 * Math.PI);
      }
      c.fillStyle = s.fill; c.fill();
      c.setLineDash(s.dashed ? [2, 2] : []);
      c.strokeStyle = "#333"; c.lineWidth = 0.8; c.stroke();
      c.setLineDash([]);
      if (s.double) { c.beginPath(); c.arc(x, y, r + 3, 0, 2 * Math.PI); c.stroke(); }
    }
    const SPAN_COLORS = ["#009e7366", "#d55e0066", "#d55e00aa", "#d55e0033", "#555555", "#55555555", "#cc79a766", "#cc79a733"];
    let drawPending = false;
    function drawTimeline() {
      if (drawPending) return;
      drawPending = true;
      requestAnimationFrame(() => { drawPending = false; paint(); });
    }
    function paint() {
      const dpr = window.devicePixelRatio || 1;
      const cssW = canvas.parentElement.clientWidth, cssH = AXIS_H + L * ROW_H + 10;
      if (canvas.width !== Math.round(cssW * dpr) || canvas.height !== Math.round(cssH * dpr)) {
        canvas.width = Math.round(cssW * dpr); canvas.height = Math.round(cssH * dpr);
        canvas.style.height = cssH + "px";
      }
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      ctx.clearRect(0, 0, cssW, cssH);
      ctx.font = "11px -apple-system, Helvetica, Arial, sans-serif";
      // Axis: evenly spaced ticks on one scale.
      const step = niceStep((v1 - v0) / Math.max(2, plotW() / 90));
      ctx.fillStyle = "#344054"; ctx.strokeStyle = "#eef0f3"; ctx.lineWidth = 1;
      ctx.textAlign = "center";
      for (let tk = Math.ceil(v0 / step) * step; tk <= v1; tk += step) {
        const x = xOf(tk);
        if (x < LABEL_W) continue;
        ctx.beginPath(); ctx.moveTo(x, AXIS_H - 6); ctx.lineTo(x, cssH); ctx.stroke();
        ctx.fillText(fmtT(Math.round(tk)) + "s", x, AXIS_H - 10);
      }
      ctx.strokeStyle = "#555"; ctx.beginPath(); ctx.moveTo(LABEL_W, AXIS_H - 4); ctx.lineTo(cssW - 8, AXIS_H - 4); ctx.stroke();
      $("range").textContent = fmtT(Math.max(0, Math.round(v0))) + "s – " + fmtT(Math.round(v1)) + "s";
      // Lanes.
      ctx.textAlign = "right"; ctx.textBaseline = "middle";
      for (let l = 0; l < L; l++) {
        const y = AXIS_H + l * ROW_H + ROW_H / 2;
        ctx.strokeStyle = "#f0f1f3"; ctx.beginPath(); ctx.moveTo(LABEL_W, y); ctx.lineTo(cssW - 8, y); ctx.stroke();
        ctx.fillStyle = "#1d2939";
        let name = lanes[l];
        if (name.length > 32) name = name.slice(0, 31) + "…";
        ctx.fillText(name, LABEL_W - 8, y);
      }
      ctx.save();
      ctx.beginPath(); ctx.rect(LABEL_W, 0, cssW - LABEL_W, cssH); ctx.clip();
      // Spans.
      const S = D.spans;
      for (let k = 0; k + 3 < S.length; k += 4) {
        const l = S[k], a = S[k + 1], b = S[k + 2], type = S[k + 3];
        const x0 = xOf(t[a]), x1 = b < 0 ? cssW : xOf(t[b]);
        if (x1 < LABEL_W || x0 > cssW) continue;
        const y = AXIS_H + l * ROW_H + ROW_H / 2;
        ctx.fillStyle = SPAN_COLORS[type];
        if (type === 4 || type === 5) ctx.fillRect(x0, y + 5, Math.max(1, x1 - x0), 2);
        else ctx.fillRect(x0, y - 3, Math.max(1, x1 - x0), 6);
      }
      // Marks: only those in view, one per lane per pixel column.
      let a = 0, b = N;
      if (sorted) {
        let lo = 0, hi = N;
        while (lo < hi) { const m = (lo + hi) >> 1; if (t[m] < v0 - (v1 - v0) * 0.01) lo = m + 1; else hi = m; }
        a = lo; lo = a; hi = N;
        while (lo < hi) { const m = (lo + hi) >> 1; if (t[m] <= v1) lo = m + 1; else hi = m; }
        b = lo;
      }
      const lastPx = new Int32Array(L).fill(-99999);
      for (let i = a; i < b; i++) {
        if (!shownMask[i]) continue;
        const x = Math.round(xOf(t[i]) + rank[i] * 4), l = lane[i];
        if (x === lastPx[l]) continue;
        lastPx[l] = x;
        shape(ctx, mark[i], x, AXIS_H + l * ROW_H + ROW_H / 2, 4);
      }
      // Stimuli labelled (network: cellular, flush, track: purchase), where they fit.
      ctx.font = "10px -apple-system, Helvetica, Arial, sans-serif"; ctx.textAlign = "left"; ctx.fillStyle = "#7a3e6b";
      const labelEnd = new Float64Array(L).fill(-1e9);
      for (let k = 0; k + 1 < D.notes.length; k += 2) {
        const i = D.notes[k];
        if (!shownMask[i] || t[i] < v0 || t[i] > v1) continue;
        const x = xOf(t[i]) + rank[i] * 4 + 7, l = lane[i], text = D.noteTexts[D.notes[k + 1]];
        if (x < labelEnd[l]) continue;
        ctx.fillText(text, x, AXIS_H + l * ROW_H + ROW_H / 2 - 1);
        labelEnd[l] = x + ctx.measureText(text).width + 6;
      }
      // The selected event's cause chain, highlighted.
      if (chain.length) {
        ctx.strokeStyle = "#0072b2"; ctx.lineWidth = 1.6; ctx.beginPath();
        chain.forEach((c, k) => { const x = xOf(t[c]) + rank[c] * 4, y = AXIS_H + lane[c] * ROW_H + ROW_H / 2; if (k) ctx.lineTo(x, y); else ctx.moveTo(x, y); });
        ctx.stroke();
        for (const c of chain) {
          const x = xOf(t[c]) + rank[c] * 4, y = AXIS_H + lane[c] * ROW_H + ROW_H / 2;
          ctx.beginPath(); ctx.arc(x, y, c === selected ? 8 : 6.5, 0, 2 * Math.PI);
          ctx.strokeStyle = c === selected ? "#d55e00" : "#0072b2"; ctx.lineWidth = 2; ctx.stroke();
        }
      }
      ctx.restore();
    }
    function pick(px, py) {
      const l = Math.floor((py - AXIS_H) / ROW_H);
      if (l < 0 || l >= L || px < LABEL_W) return -1;
      const idx = laneIdx[l];
      const target = v0 + (px - LABEL_W) / plotW() * (v1 - v0);
      let lo = 0, hi = idx.length;
      while (lo < hi) { const m = (lo + hi) >> 1; if (t[idx[m]] < target) lo = m + 1; else hi = m; }
      let best = -1, bestD = 9;
      for (let k = Math.max(0, lo - 12); k < Math.min(idx.length, lo + 12); k++) {
        const i = idx[k];
        if (!shownMask[i]) continue;
        const d = Math.abs(xOf(t[i]) + rank[i] * 4 - px);
        if (d < bestD) { bestD = d; best = i; }
      }
      return best;
    }
    let drag = null;
    canvas.addEventListener("mousedown", (e) => { drag = { x: e.clientX, v0, v1, moved: false }; canvas.classList.add("dragging"); });
    window.addEventListener("mousemove", (e) => {
      if (!drag) return;
      const dx = e.clientX - drag.x;
      if (Math.abs(dx) > 3) drag.moved = true;
      const dt = dx / plotW() * (drag.v1 - drag.v0);
      v0 = drag.v0 - dt; v1 = drag.v1 - dt;
      drawTimeline();
    });
    window.addEventListener("mouseup", (e) => {
      if (!drag) return;
      const moved = drag.moved;
      drag = null; canvas.classList.remove("dragging");
      if (!moved) {
        const r = canvas.getBoundingClientRect();
        const i = pick(e.clientX - r.left, e.clientY - r.top);
        if (i >= 0) select(i, true);
      }
    });
    function zoom(factor, atX) {
      const at = v0 + (atX - LABEL_W) / plotW() * (v1 - v0);
      const w = Math.max((v1 - v0) * factor, 10);
      v0 = at - (at - v0) / (v1 - v0) * w; v1 = v0 + w;
      drawTimeline();
    }
    canvas.addEventListener("wheel", (e) => {
      e.preventDefault();
      const r = canvas.getBoundingClientRect();
      if (e.shiftKey) { const dt = e.deltaY / plotW() * (v1 - v0); v0 += dt; v1 += dt; drawTimeline(); return; }
      zoom(e.deltaY > 0 ? 1.25 : 0.8, e.clientX - r.left);
    }, { passive: false });
    $("fit").addEventListener("click", () => { v0 = lo0 - span0 * 0.02; v1 = lo0 + span0 * 1.04; drawTimeline(); });
    $("zoom-in").addEventListener("click", () => zoom(0.5, LABEL_W + plotW() / 2));
    $("zoom-out").addEventListener("click", () => zoom(2, LABEL_W + plotW() / 2));
    window.addEventListener("resize", () => { drawTimeline(); renderRows(); });
    // The legend: the marks this trace uses.
    { const used = new Uint8Array(marks.length);
      for (let i = 0; i < N; i++) used[mark[i]] = 1;
      for (let k = 0; k + 3 < D.spans.length; k += 4) used[D.spanMarks[D.spans[k + 3]]] = 1;
      const box = $("tl-legend");
      marks.forEach((m, k) => {
        if (!used[k]) return;
        const item = document.createElement("span"); item.className = "k";
        const c = document.createElement("canvas"); c.width = 18; c.height = 14;
        const g = c.getContext("2d");
        const spanType = D.spanMarks.indexOf(k);
        if (spanType >= 0) { g.fillStyle = SPAN_COLORS[spanType]; g.fillRect(1, spanType === 4 || spanType === 5 ? 6 : 4, 16, spanType === 4 || spanType === 5 ? 2 : 6); }
        else shape(g, k, 9, 7, 4);
        const label = document.createElement("span"); label.textContent = m.text;
        item.appendChild(c); item.appendChild(label); box.appendChild(item);
      });
    }

    // ----- The flow graph (Graphviz's layout, drawn here from its drawing operations) -----
    (function drawGraph() {
      const G = D.graph;
      if (!G || !G.items) return;
      const svg = document.createElementNS(SVGNS, "svg");
      const W = Math.max(1, G.width), H = Math.max(1, G.height);
      svg.setAttribute("viewBox", "-4 -4 " + (W + 8) + " " + (H + 8));
      svg.setAttribute("width", String(Math.round(W + 8)));
      const X = (x) => x - G.minX, Y = (y) => G.minY + H - y;
      for (const item of G.items) {
        const g = document.createElementNS(SVGNS, "g");
        let pen = "#000000", fill = "none", dash = null, width = 1, size = 14;
        for (const op of item.ops) {
          let el = null;
          switch (op.op) {
            case "c": pen = op.color; break;
            case "C": fill = op.color; break;
            case "F": size = op.size; break;
            case "S": {
              const s = String(op.style);
              if (s === "dashed") dash = "5,2"; else if (s === "dotted") dash = "1,4"; else if (s === "solid") { dash = null; width = 1; }
              else if (s === "bold") width = 2; else { const m = /setlinewidth\(([\d.]+)\)/.exec(s); if (m) width = parseFloat(m[1]); }
              break;
            }
            case "P": case "p": case "L": {
              el = document.createElementNS(SVGNS, op.op === "L" ? "polyline" : "polygon");
              el.setAttribute("points", op.points.map((p) => X(p[0]) + "," + Y(p[1])).join(" "));
              el.setAttribute("fill", op.op === "P" ? fill : "none");
              break;
            }
            case "b": case "B": {
              el = document.createElementNS(SVGNS, "path");
              const p = op.points;
              let d = "M" + X(p[0][0]) + "," + Y(p[0][1]);
              for (let k = 1; k + 2 < p.length; k += 3) d += "C" + [p[k], p[k + 1], p[k + 2]].map((q) => X(q[0]) + "," + Y(q[1])).join(" ");
              el.setAttribute("d", d);
              el.setAttribute("fill", op.op === "B" ? fill : "none");
              break;
            }
            case "e": case "E": {
              el = document.createElementNS(SVGNS, "ellipse");
              el.setAttribute("cx", String(X(op.rect[0]))); el.setAttribute("cy", String(Y(op.rect[1])));
              el.setAttribute("rx", String(op.rect[2])); el.setAttribute("ry", String(op.rect[3]));
              el.setAttribute("fill", op.op === "E" ? fill : "none");
              break;
            }
            case "T": {
              el = document.createElementNS(SVGNS, "text");
              el.setAttribute("x", String(X(op.pt[0]))); el.setAttribute("y", String(Y(op.pt[1])));
              el.setAttribute("text-anchor", op.align === "l" ? "start" : op.align === "r" ? "end" : "middle");
              el.setAttribute("font-size", String(size));
              el.setAttribute("font-family", "Helvetica, Arial, sans-serif");
              el.setAttribute("fill", pen);
              el.textContent = op.text;
              g.appendChild(el);
              el = null;
              break;
            }
          }
          if (el) {
            el.setAttribute("stroke", pen);
            el.setAttribute("stroke-width", String(width));
            if (dash) el.setAttribute("stroke-dasharray", dash);
            g.appendChild(el);
          }
        }
        if (item.lane !== undefined) {
          g.setAttribute("class", "board");
          const l = item.lane;
          g.addEventListener("click", () => { laneSel.value = String(l); applyFilters(); });
        }
        svg.appendChild(g);
      }
      $("graph").appendChild(svg);
      $("graph-note").textContent = "· counts observed in this trace; click a board to filter";
    })();

    applyFilters();
    // Read-only state for tests and for people in the console (numbers only).
    window.boardyViz = Object.freeze({
      events: N,
      shown: () => shownCount,
      selected: () => (selected < 0 ? null : seq[selected]),
      chain: () => chain.map((i) => seq[i]),
      markAt: (q) => { const i = indexOfSeq(q); if (i < 0) return null; const r = canvas.getBoundingClientRect();
        return [r.left + xOf(t[i]) + rank[i] * 4, r.top + AXIS_H + lane[i] * ROW_H + ROW_H / 2]; },
    });
    performance.mark("boardy-viz-ready");
    document.documentElement.setAttribute("data-ready", "true");
  } catch (e) {
    fail(e);
  }
})();
