import { createHash } from 'node:crypto';
import { escapeHtml } from './escape-html.js';
import { html, type SafeHtml } from './safe-html.js';

/**
 * The style every report page shares: the summary page holds it (and its filter rules)
 * in its `<style>`, allowed by hash; run pages link it as one file of the report's
 * shared folder (`report.css`).
 */
export const reportStyle = `
body{font:14px/1.45 system-ui,sans-serif;margin:0 auto;max-width:1280px;padding:1rem 1.5rem;color:#1d2330;background:#fafbfc}
h1{font-size:1.45rem;margin:.2rem 0 .6rem}h2{font-size:1.15rem;margin:1rem 0 .3rem}h3{font-size:1rem;margin:.2rem 0}
a{color:#2b4f8c}
table.summary{border-collapse:collapse;font-variant-numeric:tabular-nums;margin:.5rem 0}
table.summary th,table.summary td{border:1px solid #d5d9e0;padding:.25rem .5rem;text-align:right}
table.summary th:first-child,table.summary td:first-child{text-align:left}
.notes{color:#555;font-size:.9em}
.badge{display:inline-block;border-radius:4px;padding:0 .4rem;font-size:.85em;font-weight:600;color:#fff;white-space:nowrap}
.badge.pass,.badge.success{background:#1f8a4c}.badge.fail,.badge.failure,.badge.failed{background:#c0392b}
.badge.inconclusive,.badge.error{background:#b7791f}.badge.open,.badge.gate{background:#6b46c1}.badge.closed{background:#718096}
.badge.vision{background:#d53f8c}.badge.verifier{background:#2c7a7b}.badge.skill{background:#2b6cb0}.badge.guard{background:#9c4221}
.badge.rejected{background:#c05621}.badge.screenshot{background:#4a5568}.badge.fault{background:#97266d}.badge.device-fault{background:#702459}
dl.facts{display:flex;flex-wrap:wrap;gap:.2rem 1.2rem;margin:.4rem 0}dl.facts dt{color:#666}dl.facts dd{margin:0 0 0 .3rem;font-weight:600}
ul.events{list-style:none;margin:0;padding:0}ul.events li{margin:.15rem 0;overflow-wrap:anywhere}
ul.events b{display:inline-block;min-width:8.5rem;color:#556;font-family:ui-monospace,monospace;font-size:.85em;font-weight:400}
pre{background:#f3f4f7;padding:.5rem;overflow:auto;max-height:24rem;white-space:pre-wrap;word-break:break-word}
code{font-family:ui-monospace,monospace;font-size:.9em}
details{margin:.3rem 0}summary{cursor:pointer;color:#2b4f8c}
.problems{color:#9b2c2c}
nav.crumbs{font-size:.9em;margin-bottom:.4rem}
section.step{border:1px solid #d5d9e0;border-radius:6px;background:#fff;margin:1rem 0;padding:.6rem .9rem}
section.step header.step{display:flex;flex-wrap:wrap;align-items:baseline;gap:.3rem .6rem}
section.step header.step h2{margin:0;font-size:1.05rem}
.intent{font-weight:600}
.actions{margin:.2rem 0;font-family:ui-monospace,monospace;font-size:.9em}
.sides{display:grid;grid-template-columns:repeat(2,minmax(0,260px)) minmax(0,1fr);gap:.8rem;align-items:start;margin-top:.4rem}
figure.panel{margin:0}figure.panel figcaption{font-size:.8em;font-weight:700;text-transform:uppercase;color:#556;letter-spacing:.04em}
figure.panel div.screen{position:relative;border:1px solid #ccd;background:#fff}
figure.panel div.screen img{position:absolute;left:0;top:0;width:100%;height:100%}
figure.panel svg.marks{position:relative;display:block;width:100%;height:auto;pointer-events:none}
figure.panel .missing{color:#888;font-style:italic;border:1px dashed #ccd;padding:2rem .5rem;text-align:center}
rect.target{fill:#f6ad55;fill-opacity:.18;stroke:#dd6b20}
rect.changed{fill:#68d391;fill-opacity:.2;stroke:#2f855a;stroke-dasharray:10 6}
circle.tap{fill:#e53e3e;fill-opacity:.25;stroke:#c53030}circle.tap-dot{fill:#c53030}
line.stroke{stroke:#c53030;stroke-opacity:.7;stroke-linecap:round}
.findings h3{font-size:.85em;text-transform:uppercase;color:#556;letter-spacing:.04em;margin:.3rem 0 .1rem}
ul.changes{margin:0;padding-left:1.1rem}ul.changes li{overflow-wrap:anywhere}
ul.atoms{list-style:none;margin:0;padding-left:0}ul.atoms ul.atoms{padding-left:1.1rem;border-left:2px solid #e3e6eb}
ul.atoms li{margin:.15rem 0}
.atom{font-family:ui-monospace,monospace;font-size:.88em;white-space:pre-wrap;overflow-wrap:anywhere}
li.culprit .atom{background:#fed7d7;outline:2px solid #c53030;border-radius:3px;padding:0 .2rem}
.reason{color:#555;font-size:.9em;overflow-wrap:anywhere}
table.runs{border-collapse:collapse;width:100%;font-variant-numeric:tabular-nums;counter-reset:shown}
table.runs th,table.runs td{border-bottom:1px solid #e3e6eb;padding:.2rem .4rem;text-align:left;vertical-align:top}
table.runs td.number{text-align:right}
table.runs tr.run{counter-increment:shown}
table.runs td.reason{max-width:32rem;overflow-wrap:anywhere}
.shown::after{content:counter(shown)}
.filters{margin:.4rem 0}
.filters fieldset{display:inline-block;border:1px solid #d5d9e0;border-radius:6px;margin:.2rem .4rem .2rem 0;padding:.15rem .5rem}
.filters legend{font-size:.8em;color:#556}
.filters input{position:absolute;opacity:0;width:1px;height:1px}
.filters label{cursor:pointer;display:inline-block;padding:0 .4rem;margin:.1rem 0;border-radius:4px}
.filters input:checked+label{background:#2b4f8c;color:#fff}
.filters input:focus-visible+label{outline:2px solid #2b4f8c}
.legend span{margin-right:.6rem}
`;

/**
 * A page's Content-Security-Policy: nothing loads or runs except images from the report's
 * own folder (screenshots in the run folders) and this page's style sheet, allowed by its
 * hash. No script source is allowed at all, so even markup that slipped past escaping
 * could not run.
 */
export function contentSecurityPolicy(styleText: string): string {
  const styleHash = createHash('sha256').update(styleText, 'utf8').digest('base64');
  return `default-src 'none'; img-src 'self'; style-src 'sha256-${styleHash}'; script-src 'none'; object-src 'none'; base-uri 'none'; form-action 'none'`;
}

/**
 * A run page's Content-Security-Policy: nothing runs; images (the shared folder's screen
 * sprites, screenshots in the run folders) and style sheets load only from the page's own
 * origin (from file://, local files), and no `<style>` or style attribute in the page
 * applies.
 */
export function runPageContentSecurityPolicy(): string {
  return `default-src 'none'; img-src 'self'; style-src 'self'; script-src 'none'; object-src 'none'; base-uri 'none'; form-action 'none'`;
}

/** The policy of a page whose only style is `reportStyle` inline. */
export function reportContentSecurityPolicy(): string {
  return contentSecurityPolicy(reportStyle);
}

/**
 * The style sheet goes through `html` like everything else. `<style>` content is raw
 * text (no entity decoding), so it must not contain characters that escaping changes,
 * or the page would get different CSS than the one its CSP hash allows.
 */
export function styleSheet(styleText: string): SafeHtml {
  if (escapeHtml(styleText) !== styleText) throw new Error('report style: the style sheet must not contain & < > " \' or ` (they would be escaped inside <style>)');
  return html`${styleText}`;
}

