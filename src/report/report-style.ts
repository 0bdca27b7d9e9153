import { createHash } from 'node:crypto';

/** The report's whole style sheet; the page allows exactly this inline style by its hash. */
export const reportStyle = `
body{font:14px/1.45 system-ui,sans-serif;margin:0 auto;max-width:1200px;padding:1rem 1.5rem;color:#1d2330;background:#fafbfc}
h1{font-size:1.5rem}h2{font-size:1.15rem;margin:0}h3{font-size:1rem;margin:.2rem 0}
table.summary{border-collapse:collapse;font-variant-numeric:tabular-nums;margin:.5rem 0}
table.summary th,table.summary td{border:1px solid #d5d9e0;padding:.25rem .5rem;text-align:right}
table.summary th:first-child,table.summary td:first-child{text-align:left}
.notes{color:#555;font-size:.9em}
section.run{border:1px solid #d5d9e0;border-radius:6px;background:#fff;margin:1.2rem 0;padding:.8rem 1rem}
.badge{display:inline-block;border-radius:4px;padding:0 .4rem;font-size:.85em;font-weight:600;color:#fff}
.badge.pass,.badge.success{background:#1f8a4c}.badge.fail,.badge.failure{background:#c0392b}
.badge.inconclusive,.badge.error{background:#b7791f}.badge.open{background:#6b46c1}.badge.closed{background:#718096}.badge.skill{background:#2b6cb0}
dl.facts{display:flex;flex-wrap:wrap;gap:.2rem 1.2rem;margin:.4rem 0}dl.facts dt{color:#666}dl.facts dd{margin:0 0 0 .3rem;font-weight:600}
.step{display:grid;grid-template-columns:280px 1fr;gap:1rem;border-top:1px solid #e3e6eb;padding:.8rem 0}
.shot img,.shot svg{width:270px;height:auto;border:1px solid #ccd;background:#fff}
.shot .missing{color:#888;font-style:italic}
ul.events{list-style:none;margin:0;padding:0}ul.events li{margin:.15rem 0}
.kind{display:inline-block;min-width:8.5rem;color:#556;font-family:ui-monospace,monospace;font-size:.85em}
pre{background:#f3f4f7;padding:.5rem;overflow:auto;max-height:28rem;white-space:pre-wrap;word-break:break-word}
code{font-family:ui-monospace,monospace;font-size:.9em}
details{margin:.3rem 0}summary{cursor:pointer;color:#2b4f8c}
.problems{color:#9b2c2c}
svg.wireframe rect.screen{fill:#fbfbfd;stroke:#999;stroke-width:2}
svg.wireframe rect.node{fill:none;stroke:#c3c8d2;stroke-width:2}
svg.wireframe rect.clickable{stroke:#2b6cb0;stroke-width:3}svg.wireframe rect.editable{stroke:#2f855a;stroke-width:3}
svg.wireframe rect.scrollable{stroke:#b7791f;stroke-dasharray:8 6}svg.wireframe rect.on{fill:#bee3f8;fill-opacity:.5}
svg.wireframe text{fill:#333;font-family:system-ui,sans-serif}
`;

/**
 * The page's Content-Security-Policy: nothing loads or runs except same-folder images
 * and this style sheet (by hash). No script source is allowed at all, so even markup
 * that slipped past escaping could not run.
 */
export function reportContentSecurityPolicy(): string {
  const styleHash = createHash('sha256').update(reportStyle, 'utf8').digest('base64');
  return `default-src 'none'; img-src 'self'; style-src 'sha256-${styleHash}'; script-src 'none'; object-src 'none'; base-uri 'none'; form-action 'none'`;
}
