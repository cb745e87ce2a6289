"""`cu2hip report --format html`: one self-contained page (no script, no external file)
with the kernel table, a chart of each kernel's VGPRs and occupancy with and without
the optimizing passes, and a chart of the static register estimate beside hipcc's
VGPRs, drawn as inline SVG."""

from __future__ import annotations

import html

from translator.output.positions import one_line, path_text

BAR, GAP, WIDTH = 14, 10, 360
STYLE = """body{font:14px system-ui,sans-serif;margin:24px;color:#222}table{border-collapse:collapse;margin:12px 0}
td,th{border:1px solid #ccc;padding:3px 8px;text-align:left}th{background:#f3f3f3}.with{fill:#2a7ab8}
.without{fill:#c9c9c9}.estimate{fill:#e08a2c}.spill{fill:#c0392b}.label{font-size:12px}.axis{stroke:#999}
h2{margin-top:28px}"""


def _chart(table: list[dict], key: str, title: str, limit: int) -> str:
    rows = [r for r in table if r.get(key) is not None]
    if not rows:
        return f"<p>{html.escape(title)}: no figures.</p>"
    pairs = [(r["kernel"], ("with", r[key], str(r[key])),
              ("without", (r.get("without") or {}).get(key), str((r.get("without") or {}).get(key))))
             for r in rows]
    return _bar_pairs(pairs, title, limit)


def _estimate_chart(table: list[dict]) -> str:
    """Per kernel, the estimate (orange; red when it predicts a spill) above hipcc's VGPRs
    with the optimizing passes (blue), where hipcc gave them."""
    rows = [r for r in table if (r.get("estimate") or {}).get("vgprs") is not None]
    if not rows:
        return "<p>Estimated VGPRs: no estimate.</p>"
    pairs = []
    for r in rows:
        guess, spill = r["estimate"]["vgprs"], r["estimate"]["spill"]
        pairs.append((r["kernel"], ("spill" if spill else "estimate", guess,
                                    f"{guess}{' (spill predicted)' if spill else ''}"),
                      ("with", r.get("vgprs"), str(r.get("vgprs")))))
    return _bar_pairs(pairs, "Estimated and compiled VGPRs per kernel", 128)


def _bar_pairs(pairs, title: str, limit: int) -> str:
    """An SVG of two bars per row: (label, (class, value, text), (class, value or None, text))."""
    height = len(pairs) * (2 * BAR + GAP) + 30
    scale = WIDTH / max(limit, max(max(top[1], bottom[1] or 0) for _, top, bottom in pairs))
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH + 260}" height="{height}" role="img" '
           f'aria-label="{html.escape(title)}">']
    y = 10
    for label, top, bottom in pairs:
        out.append(f'<text class="label" x="0" y="{y + BAR + 4}">{html.escape(label)}</text>')
        for offset, (kind, value, text) in ((0, top), (BAR, bottom)):
            if value is not None:
                out.append(f'<rect class="{kind}" x="200" y="{y + offset}" width="{value * scale:.1f}" '
                           f'height="{BAR}"/><text class="label" x="{204 + value * scale:.1f}" '
                           f'y="{y + offset + BAR - 3}">{text}</text>')
        y += 2 * BAR + GAP
    out.append(f'<line class="axis" x1="200" y1="0" x2="200" y2="{y}"/></svg>')
    return "".join(out)


def _estimate_cell(e: dict | None) -> str:
    if not e or e.get("vgprs") is None:
        return html.escape(f"none ({e['reason']})" if e and e.get("reason") else "none")
    text = str(e["vgprs"]) + (f" (spill predicted: demand {e['demand']}, cap {e['cap']})" if e["spill"] else "")
    if e.get("scratch_arrays"):
        text += f"; scratch arrays: {', '.join(e['scratch_arrays'])}"
    return html.escape(text)


def to_html(findings: dict, table: list[dict], missing: list[str], arch: str, hosts: list[dict] = ()) -> str:
    cell = lambda v: html.escape("" if v is None else one_line(str(v)))   # noqa: E731
    where = lambda path: html.escape(path_text(path))                   # noqa: E731
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8"><title>cu2hip report</title>',
             f"<style>{STYLE}</style></head><body>", "<h1>cu2hip report</h1>",
             f"<p>Register figures: hipcc for {html.escape(arch)}; blue with the optimizing passes, grey without.</p>",
             "<h2>VGPRs per kernel</h2>", _chart(table, "vgprs", "VGPRs per kernel", 128),
             "<h2>Occupancy (waves per SIMD)</h2>", _chart(table, "occupancy", "Occupancy per kernel", 8),
             "<h2>Estimated VGPRs beside hipcc's</h2>",
             "<p>Orange: the static estimate, counted from the source for the kernel's bounds (red: a spill "
             "predicted); blue: hipcc's VGPRs with the optimizing passes.</p>", _estimate_chart(table),
             "<h2>Kernels</h2><table><tr><th>Where</th><th>Kernel</th><th>Launched with</th><th>Bounds</th>"
             "<th>VGPRs</th><th>Scratch B/lane</th><th>Spills</th><th>Occupancy</th><th>CUDA registers</th>"
             "<th>Estimated VGPRs</th><th>Launch changes</th></tr>"]
    for r in table:
        before = r.get("without") or {}
        pair = lambda k: cell(r.get(k)) + (f" ({cell(before.get(k))})" if before.get(k) not in (None, r.get(k)) else "")  # noqa: E731
        parts.append(f"<tr><td>{where(r['file'])}:{r['line']}</td><td>{cell(r['kernel'])}</td>"
                     f"<td>{cell(', '.join(map(str, r['launch_sizes'])) or 'none')}"
                     f"{'<br>' + cell(r['unknown']) if r['unknown'] else ''}</td><td>{cell(r['bounds'] or 'none')}</td>"
                     f"<td>{pair('vgprs')}</td><td>{pair('scratch_bytes')}</td><td>{pair('vgpr_spills')}</td>"
                     f"<td>{pair('occupancy')}</td><td>{cell(r.get('nvcc_registers'))}</td>"
                     f"<td>{_estimate_cell(r.get('estimate'))}</td><td>"
                     + ("<br>".join(f"[{cell(c['code'])}] {cell(c['message'])}" for c in r.get("launch_changes", ()))
                        or "none") + "</td></tr>")
    parts.append("</table>")
    if hosts:       # translator.output.functions.rows
        parts.append("<h2>Host functions</h2><table><tr><th>Where</th><th>Function</th><th>Findings</th></tr>")
        for h in hosts:
            parts.append(f"<tr><td>{where(h['file'])}:{h['line']}</td><td>{cell(h['function'])}</td><td>"
                         + "<br>".join(f"line {f['line']}: [{cell(f['code'])}]{' (applied)' if f['applied'] else ''} "
                                       f"{cell(f['message'])}" for f in h["findings"]) + "</td></tr>")
        parts.append("</table>")
    for topic, items in findings.items():
        parts.append(f"<h2>{html.escape(topic)}</h2><ul>")
        parts += [f"<li>{where(d.path)}:{d.line}: [{cell(d.code)}] {cell(d.message)}</li>" for d in items]
        parts.append("</ul>")
    if missing:
        parts.append("<h2>Missing figures</h2><ul>" + "".join(f"<li>{cell(m)}</li>" for m in missing) + "</ul>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"
