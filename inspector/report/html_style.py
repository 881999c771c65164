"""The style sheet inlined in the HTML report (`report --html`): readable on screen and printed,
light or dark as the reader's system prefers; nothing loaded from anywhere."""

STYLE = """
:root { color-scheme: light dark; --fg: #1f2328; --muted: #59636e; --line: #d1d9e0; --panel: #f6f8fa;
  --fault: #fff1b8; --removed: #ffd7d5; --added: #d2f7dc; --new: #eefbf1; --accent: #c2410c; }
@media (prefers-color-scheme: dark) {
  :root { --fg: #e6edf3; --muted: #9198a1; --line: #3d444d; --panel: #151b23;
    --fault: #5c4a00; --removed: #67060c; --added: #033a16; --new: #0d2818; }
}
* { box-sizing: border-box; }
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); margin: 0 auto;
  max-width: 1400px; padding: 1.5rem; }
h1 { font-size: 1.6rem; margin: 0 0 .25rem; }
h2 { font-size: 1.25rem; margin: 2.5rem 0 .25rem; padding-top: .75rem; border-top: 2px solid var(--line);
  overflow-wrap: anywhere; }
h3 { font-size: 1.05rem; margin: 1.75rem 0 .5rem; }
h4 { font-size: .8rem; text-transform: uppercase; letter-spacing: .06em; color: var(--muted); margin: 0 0 .5rem; }
.meta, .note, .legend { color: var(--muted); }
table { border-collapse: collapse; margin: .5rem 0 1rem; }
.wide { overflow-x: auto; }  /* a table wider than the page scrolls in its box, not the page */
.rates tbody th { white-space: nowrap; }  /* a model's or tool's name on one line (claude-sonnet-4-5) */
th, td { border: 1px solid var(--line); padding: .25rem .6rem; text-align: left; vertical-align: top;
  overflow-wrap: anywhere; }
td.number, th.number { text-align: right; font-variant-numeric: tabular-nums; }
td.number { white-space: nowrap; overflow-wrap: normal; }
th { overflow-wrap: normal; hyphens: manual; }  /* a kind's name breaks at its hyphens, not mid-word */
.kinds td { vertical-align: middle; }
.bar { display: block; }
.findings { list-style: none; padding: 0; margin: 0 0 .75rem; }
.finding { border-left: 4px solid var(--line); padding: .25rem .75rem; margin: .35rem 0; background: var(--panel); }
.finding.severity-error { border-left-color: #cf222e; }
.finding.severity-warning { border-left-color: #bf8700; }
.finding.severity-info { border-left-color: #0969da; }
.finding p { margin: .2rem 0; }
.severity { font-weight: 600; text-transform: uppercase; font-size: .75rem; letter-spacing: .05em; }
.kind { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-weight: 600; }
.sides { display: grid; grid-template-columns: 1fr 1fr; gap: 1rem; }
@media (max-width: 800px) { .sides { grid-template-columns: 1fr; } }
.side { min-width: 0; border: 1px solid var(--line); border-radius: 6px; padding: .75rem; }
.block { margin: 0 0 .75rem; }
.block.new { background: var(--new); border-radius: 4px; padding: .25rem .4rem; }
.label { font-size: .8rem; color: var(--muted); }
pre { margin: .15rem 0 0; padding: .5rem; background: var(--panel); border-radius: 4px; white-space: pre-wrap;
  overflow-wrap: anywhere; font: 13px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
pre.empty { color: var(--muted); font-style: italic; }
mark.fault { background: var(--fault); color: inherit; outline: 1px dashed var(--accent); }
del { background: var(--removed); text-decoration: line-through; text-decoration-color: #cf222e; }
del mark.fault { background: var(--removed); }
ins { background: var(--added); text-decoration: none; }
.redacted { font-weight: 600; color: var(--accent); }
.elided { color: var(--muted); font-style: italic; }
.legend mark, .legend del, .legend ins { padding: 0 .25rem; }
.errors li, .problems li { overflow-wrap: anywhere; }
nav ul { columns: 2; padding-left: 1.2rem; }
nav li { overflow-wrap: anywhere; }
"""
