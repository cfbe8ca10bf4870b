// The dashboard's page: polls the server every POLL_MS and updates the run list, the charts (in place, with
// uPlot's setData), the samples and the options of the runs picked, without reloading.
"use strict";
const POLL_MS = 1500;
const COLOURS = ["#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"];
const picked = new Set();
const colourOfRun = new Map();   // each run keeps its colour in every chart

function colour(run) {
  if (!colourOfRun.has(run)) colourOfRun.set(run, COLOURS[colourOfRun.size % COLOURS.length]);
  return colourOfRun.get(run);
}
let firstList = true;
const charts = new Map();   // tag -> {plot, key, box}
window.jgradCharts = charts;   // for the browser test, and for anyone curious in the console

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v; else if (k.startsWith("on")) e[k] = v; else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c instanceof Node ? c : document.createTextNode(c == null ? "" : String(c)));
  return e;
}

// An axis value with the digits that tell ticks apart: 0.0003, 0.00025, 1.5e-5, 30,000.
function number(v) {
  if (v == null) return "";
  if (v === 0) return "0";
  const a = Math.abs(v);
  if (a >= 1e-3 && a < 1e6) return parseFloat(v.toPrecision(3)).toLocaleString("en-US", {maximumSignificantDigits: 3});
  return v.toExponential(1);
}

function duration(s) {
  if (s == null) return "";
  s = Math.round(s);
  if (s < 60) return s + " s";
  if (s < 3600) return Math.floor(s / 60) + " min " + String(s % 60).padStart(2, "0") + " s";
  return Math.floor(s / 3600) + " h " + String(Math.floor(s % 3600 / 60)).padStart(2, "0") + " min";
}

async function getJson(url) {
  const r = await fetch(url, {cache: "no-store"});
  if (!r.ok && r.status !== 500) throw new Error(url + ": " + r.status);
  return r.json();
}

function renderList(runs) {
  const body = document.querySelector("#runs tbody");
  body.replaceChildren();
  document.getElementById("empty").hidden = runs.length > 0;
  if (firstList && runs.length > 0) {
    // The runs named in the address (?runs=a,b), else the newest.
    const asked = (new URLSearchParams(location.search).get("runs") || "").split(",").filter(n => runs.some(r => r.name === n));
    for (const n of asked.length ? asked : [runs[0].name]) picked.add(n);
    firstList = false;
  }
  for (const r of runs) {
    const box = el("input", {type: "checkbox", "data-run": r.name});
    box.checked = picked.has(r.name);
    box.onchange = () => { if (box.checked) picked.add(r.name); else picked.delete(r.name); refresh(); };
    if (r.error) {
      body.append(el("tr", {class: "error", "data-run": r.name}, el("td", {}, box), el("td", {}, r.name),
        el("td", {colspan: "4"}, "cannot be read: " + r.error)));
      continue;
    }
    const progress = r.state === "running" && r.total_steps ? " " + r.step + "/" + r.total_steps : "";
    const best = r.best == null ? "" : r.best.toFixed(4) + " (" + r.best_tag.replace("loss/", "") + ", step " + r.best_step + ")";
    body.append(el("tr", {"data-run": r.name}, el("td", {}, box), el("td", {}, r.name), el("td", {}, r.trainer || ""),
      el("td", {}, el("span", {class: "state " + r.state}, r.state + progress)), el("td", {class: "num"}, best),
      el("td", {class: "num"}, duration(r.seconds))));
  }
}

// Tags in the order people look for them: the losses first, then the rest by name.
function tagOrder(a, b) {
  const rank = t => t.startsWith("loss/") ? 0 : t.startsWith("accuracy") ? 1 : 2;
  return rank(a) - rank(b) || a.localeCompare(b);
}

function renderCharts(data) {
  const byTag = new Map();
  for (const d of data) {
    for (const [tag, points] of Object.entries(d.scalars || {})) {
      if (!byTag.has(tag)) byTag.set(tag, []);
      byTag.get(tag).push({run: d.name, points});
    }
  }
  const holder = document.getElementById("charts");
  for (const [tag, c] of charts) {
    if (!byTag.has(tag)) { c.plot.destroy(); c.box.remove(); charts.delete(tag); }
  }
  for (const tag of [...byTag.keys()].sort(tagOrder)) {
    const series = byTag.get(tag);
    const tables = series.map(s => [s.points.map(p => p[0]), s.points.map(p => p[1])]);
    const aligned = uPlot.join(tables);
    const key = series.map(s => s.run).join("\u0000");
    const c = charts.get(tag);
    if (c && c.key === key) {
      c.plot.setData(aligned);
      continue;
    }
    if (c) { c.plot.destroy(); c.box.remove(); }
    const box = el("div", {class: "chart", "data-tag": tag}, el("h2", {}, tag));
    holder.append(box);
    const opts = {
      width: 460, height: 260,
      scales: {x: {time: false}},
      axes: [{label: "step"}, {size: 64, values: (u, vals) => vals.map(number)}],
      series: [{label: "step"}].concat(series.map(s => ({
        label: s.run, stroke: colour(s.run), width: 1.5, spanGaps: true,
        points: {show: s.points.length <= 40}}))),
    };
    charts.set(tag, {plot: new uPlot(opts, aligned, box), key, box});
  }
}

function renderSamples(data) {
  const holder = document.getElementById("samples");
  holder.replaceChildren();
  for (const d of data) {
    for (const [tag, texts] of Object.entries(d.texts || {})) {
      if (texts.length === 0) continue;
      const [step, text] = texts[texts.length - 1];
      holder.append(el("h2", {}, d.name + ": " + tag + " at step " + step), el("div", {class: "sample"}, text));
    }
  }
}

function renderOptions(data) {
  const holder = document.getElementById("options");
  holder.replaceChildren();
  for (const d of data) {
    if (d.error) {
      holder.append(el("p", {class: "error"}, d.name + ": " + d.error));
      continue;
    }
    const rows = Object.entries(d.options || {}).map(([k, v]) => el("tr", {}, el("td", {}, k), el("td", {}, JSON.stringify(v))));
    if (rows.length) holder.append(el("h2", {}, d.name + ": options"), el("table", {}, el("tbody", {}, ...rows)));
  }
}

async function refresh() {
  try {
    const runs = await getJson("/api/runs");
    document.getElementById("offline").hidden = true;
    renderList(runs);
    const names = runs.map(r => r.name);
    for (const p of [...picked]) if (!names.includes(p)) picked.delete(p);
    const data = await Promise.all([...picked].map(n => getJson("/api/run?name=" + encodeURIComponent(n))));
    renderCharts(data.filter(d => !d.error));
    renderSamples(data);
    renderOptions(data);
    document.getElementById("updated").textContent = "updated " + new Date().toLocaleTimeString();
  } catch (e) {
    document.getElementById("offline").hidden = false;
  }
}

refresh();
setInterval(refresh, POLL_MS);
