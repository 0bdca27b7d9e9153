// The report is tested in headless Chromium on two bench folders: a SYNTHETIC one (see
// synthetic-run-folder.ts) whose app text is hostile and must show as text and never run,
// and a REAL one the in-process simulator writes (two Settings tasks in senseact and
// open-loop under the standard faults), whose pages must show each step's before and
// after, the tap and its target, the change in words and the failing atom. Screenshots of
// the pages go to runs/report-test-screenshots/ (kept after the test, gitignored).
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createBenchExecutor } from '../../../src/bench/compose.js';
import { runBenchmark } from '../../../src/bench/run-benchmark.js';
import { writeBenchReport } from '../../../src/bench/write-bench-report.js';
import { drawScreen } from '../../../src/report/screen-drawing.js';
import { ScreenSprites } from '../../../src/report/screen-sprites.js';
import { loadSuite } from '../../../src/tasks/load-task-file.js';
import { parseHierarchy } from '../../../src/ui/parse-hierarchy.js';
import { chromiumTool, describeWithTool } from '../../helpers/system-tool.js';
import { hostileImage, hostileScript, writeSyntheticBench } from './synthetic-run-folder.js';

const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..');
const screenshots = path.join(repoRoot, 'runs', 'report-test-screenshots');
const launchArgs = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

// Without Chromium this skips, saying so; .ci/run installs it and sets SENSEACT_REQUIRE_BROWSER=1, which makes a skip a failure.
describeWithTool(chromiumTool, import.meta.filename, 'bench HTML report in headless Chromium', (chromiumPath) => {
  let root: string;
  let hostile: string;
  let real: string;
  let browser: Browser;

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'senseact-report-'));
    hostile = path.join(root, 'hostile');
    real = path.join(root, 'real');
    await writeSyntheticBench(hostile, 2, { screenshots: true, hostile: true });
    const suite = await loadSuite('sim', { tasksRoot: path.join(repoRoot, 'tasks') });
    const tasks = suite.tasks.filter((task) => task.id === 'settings-wifi-off' || task.id === 'settings-airplane-on');
    expect(tasks).toHaveLength(2);
    const handle = await createBenchExecutor({ suite: 'sim', device: 'sim', faults: 'standard', policy: 'oracle', outDir: real, cwd: repoRoot, env: {}, signal: new AbortController().signal });
    try {
      await runBenchmark({ tasks, modes: ['senseact', 'open-loop'], repeat: 1, concurrency: 1, outDir: real, resume: false, executor: handle.executor, policy: handle.policy, suite: 'sim' });
    } finally {
      await handle.close();
    }
    await mkdir(screenshots, { recursive: true });
    browser = await chromium.launch({ executablePath: chromiumPath, args: launchArgs });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await rm(root, { recursive: true, force: true });
  });

  async function open(file: string): Promise<{ page: Page; cspViolations: string[] }> {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const cspViolations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
    });
    await page.goto(pathToFileURL(file).href);
    return { page, cspViolations };
  }

  it('writes a summary and one page per run, shows hostile app text as text, runs none of it', async () => {
    const report = await writeBenchReport(hostile, { now: () => new Date('2026-11-22T04:00:00Z') });
    expect(report.htmlFile).toBe(path.join(hostile, 'report.html'));
    expect(report.pagesDir).toBe(path.join(hostile, 'report'));
    expect((await readdir(report.pagesDir)).sort()).toEqual(['_shared', 'note-0', 'note-1']);
    expect((await readdir(report.sharedDir)).sort()).toEqual(['report.css', 'screens-0.svg']);
    expect(report.runPages).toBe(2);

    for (const file of [report.htmlFile, path.join(report.pagesDir, 'note-0', 'senseact-r0.html')]) {
      const { page, cspViolations } = await open(file);
      expect(await page.evaluate('window.__pwned')).toBeUndefined();
      expect(await page.locator('script').count()).toBe(0);
      expect(await page.locator('[onerror]').count()).toBe(0);
      const text = await page.locator('body').innerText();
      expect(text).toContain(`note saved ${hostileScript} ${hostileImage}`);
      expect(cspViolations).toEqual([]);
      await page.close();
    }
    const { page } = await open(path.join(report.pagesDir, 'note-0', 'senseact-r0.html'));
    const body = await page.locator('body').innerText();
    expect(body).toContain(`Create a note ${hostileScript} ${hostileImage}`);
    expect(body).toContain(`open a new note ${hostileScript}`);
    // The screens are images of the report's shared sprite files, and they load from file:// under the CSP.
    const screens = page.locator('figure.panel div.screen img');
    expect(await screens.count()).toBeGreaterThan(0);
    const sources = await screens.evaluateAll((elements) => elements.map((element) => element.getAttribute('src') ?? ''));
    expect(sources.every((source) => /^\.\.\/_shared\/screens-\d+\.svg#s\d+$/.test(source))).toBe(true);
    for (const index of [0, 1]) {
      await screens.nth(index).evaluate((element) => (element as unknown as { decode(): Promise<void> }).decode());
      expect(await screens.nth(index).evaluate((element) => (element as unknown as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(0);
    }
    // The style sheet is the shared file, applied although the page allows no inline style.
    expect(await page.locator('figure.panel div.screen').first().evaluate((element) => (globalThis as unknown as { getComputedStyle(target: unknown): { position: string } }).getComputedStyle(element).position)).toBe('relative');
    // The drawn screens carry the app text too, as text, and the sprite file opened by itself runs none of it.
    const sprite = path.join(report.pagesDir, '_shared', (sources[0] ?? '').replace(/^\.\.\/_shared\//, '').replace(/#.*$/, ''));
    const drawing = await browser.newPage();
    await drawing.goto(pathToFileURL(sprite).href);
    expect((await drawing.locator('text').allTextContents()).some((label) => label.startsWith('Saved <script>'))).toBe(true);
    expect(await drawing.locator('script').count()).toBe(0);
    expect(await drawing.evaluate('window.__pwned')).toBeUndefined();
    await drawing.close();
    // Step 0's screenshot (no screenshot-end event says which screen it shows) is linked
    // from the run folder, not copied, and loads under the CSP.
    const image = page.locator('#step-0 details img');
    expect(await image.getAttribute('src')).toBe('../../traces/note-0/senseact-r0/steps/000/screenshot.png');
    await page.locator('#step-0 details summary', { hasText: 'screenshot' }).click();
    await image.evaluate((element) => (element as unknown as { decode(): Promise<void> }).decode());
    expect(await image.evaluate((element) => (element as unknown as { naturalWidth: number }).naturalWidth)).toBe(4);
    await page.close();
  });

  it('a sprite file loads in Chromium although an app label holds a character XML cannot', async () => {
    const tree = parseHierarchy('<hierarchy rotation="0" width="100" height="200"><android.widget.Button class="android.widget.Button" text="Save" clickable="true" bounds="[0,0][100,40]" displayed="true"/></hierarchy>');
    const sprites = new ScreenSprites();
    const drawing = drawScreen({ ...tree, nodes: tree.nodes.map((node) => (node.text === 'Save' ? { ...node, text: 'Sa\u0001ve' } : node)) });
    expect(drawing).toBeDefined();
    if (drawing !== undefined) sprites.add(drawing);
    const folder = path.join(root, 'sprites');
    await mkdir(folder, { recursive: true });
    const markup = sprites.files()[0]?.markup ?? '';
    await writeFile(path.join(folder, 'written.svg'), markup);
    // Negative control: the raw character, as the drawing would hold it without xmlText.
    await writeFile(path.join(folder, 'raw.svg'), markup.replaceAll('Sa\uFFFDve', 'Sa\u0001ve'));
    await writeFile(path.join(folder, 'page.html'), '<!doctype html><img id="written" src="written.svg#s0" width="100" height="200"><img id="raw" src="raw.svg#s0" width="100" height="200">');
    const { page } = await open(path.join(folder, 'page.html'));
    const loaded = async (id: string): Promise<number> => page.locator(`#${id}`).evaluate((element) => new Promise<number>((resolve) => {
      const image = element as unknown as { complete: boolean; naturalWidth: number; addEventListener(type: string, listener: () => void): void };
      if (image.complete) resolve(image.naturalWidth);
      image.addEventListener('load', () => resolve(image.naturalWidth));
      image.addEventListener('error', () => resolve(0));
    }));
    expect(await loaded('written')).toBeGreaterThan(0);
    expect(await loaded('raw')).toBe(0);
    await page.close();
  });

  it('has a CSP that blocks an inline script even if one got into a page', async () => {
    const report = await writeBenchReport(hostile);
    for (const file of [report.htmlFile, path.join(report.pagesDir, 'note-1', 'senseact-r0.html')]) {
      const tampered = file.replace(/\.html$/, '-tampered.html');
      const markup = await readFile(file, 'utf8');
      await writeFile(tampered, markup.replace('<body>', '<body><script>window.__pwned = "tampered";</script><img src="x" onerror="window.__pwned = \'onerror\'">'));
      const { page, cspViolations } = await open(tampered);
      expect(await page.evaluate('window.__pwned')).toBeUndefined();
      expect(cspViolations.length).toBeGreaterThan(0);
      await page.close();
    }
  });

  it('summary: modes and apps tables, and a run list filtered by outcome and mode without script', async () => {
    const report = await writeBenchReport(real);
    const { page, cspViolations } = await open(report.htmlFile);
    await page.screenshot({ path: path.join(screenshots, 'summary.png'), fullPage: true });
    expect(await page.locator('h1').innerText()).toBe('SenseAct bench: suite sim, oracle policy (reference solutions, no model)');
    // The modes compared fit the page: no table wider than its container (errors and faults in view).
    const overflowing = await page.locator('table.summary').evaluateAll((tables) => tables.filter((table) => table.scrollWidth > (table.parentElement?.clientWidth ?? 0)).length);
    expect(overflowing).toBe(0);
    expect(await page.locator('table.summary').first().locator('tbody tr').count()).toBe(2);
    const rows = page.locator('table.runs tbody tr');
    expect(await rows.count()).toBe(4);
    const visible = async (): Promise<string[]> => (await rows.evaluateAll((elements) => elements.filter((element) => (element as unknown as { offsetParent: unknown }).offsetParent !== null).map((element) => (element as unknown as { innerText: string }).innerText)));
    expect(await visible()).toHaveLength(4);
    // Filters are radio labels and CSS :has() rules (the style sheet is allowed by its hash).
    await page.locator('label', { hasText: /^open-loop \(2\)$/ }).click();
    const openLoop = await visible();
    expect(openLoop).toHaveLength(2);
    expect(openLoop.every((row) => row.includes('open-loop'))).toBe(true);
    await page.locator('label', { hasText: /^senseact \(2\)$/ }).click();
    expect((await visible()).every((row) => row.includes('senseact'))).toBe(true);
    // Every row links to its run's page, and that page exists.
    const links = await page.locator('table.runs tbody a').evaluateAll((elements) => elements.map((element) => element.getAttribute('href') ?? ''));
    expect(links.sort()).toEqual(['report/settings-airplane-on/open-loop-r0.html', 'report/settings-airplane-on/senseact-r0.html', 'report/settings-wifi-off/open-loop-r0.html', 'report/settings-wifi-off/senseact-r0.html']);
    for (const link of links) expect(existsSync(path.join(real, link))).toBe(true);
    expect(cspViolations).toEqual([]);
    await page.close();
  });

  it('run page: before and after per step, the tap and its target, the change in words', async () => {
    await writeBenchReport(real);
    const { page } = await open(path.join(real, 'report', 'settings-wifi-off', 'senseact-r0.html'));
    await page.screenshot({ path: path.join(screenshots, 'run-settings-wifi-off-senseact.png'), fullPage: true });
    const steps = page.locator('section.step');
    expect(await steps.count()).toBeGreaterThanOrEqual(3);
    // The step that turns Wi-Fi off: before and after labelled, side by side.
    const toggle = page.locator('section.step', { has: page.locator('ul.changes li', { hasText: /^'Wi‑Fi' switch on → off$/ }) });
    expect(await toggle.count()).toBe(1);
    await toggle.screenshot({ path: path.join(screenshots, 'step-wifi-toggle.png') });
    const panels = toggle.locator('figure.panel');
    expect(await panels.locator('figcaption').allInnerTexts()).toEqual(['BEFORE', 'AFTER']);
    const [before, after] = [await panels.nth(0).boundingBox(), await panels.nth(1).boundingBox()];
    expect(before !== null && after !== null && after.x >= before.x + before.width && Math.abs(after.y - before.y) < 2).toBe(true);
    // The tap point and the targeted unit are marked on the before screen only; what changed on the after screen.
    expect(await panels.nth(0).locator('circle.tap').count()).toBe(1);
    expect(await panels.nth(0).locator('rect.target').count()).toBe(1);
    expect(await panels.nth(1).locator('circle.tap, rect.target').count()).toBe(0);
    expect(await panels.nth(1).locator('rect.changed').count()).toBeGreaterThan(0);
    // The tap lies inside the outlined target.
    const [tap, target] = [await panels.nth(0).locator('circle.tap').boundingBox(), await panels.nth(0).locator('rect.target').boundingBox()];
    expect(tap !== null && target !== null && tap.x + tap.width / 2 >= target.x && tap.x + tap.width / 2 <= target.x + target.width && tap.y + tap.height / 2 >= target.y && tap.y + tap.height / 2 <= target.y + target.height).toBe(true);
    expect(await toggle.locator('.actions').innerText()).toMatch(/^tap \(\d+, \d+\) on 'Wi‑Fi'/);
    // A passing step highlights no atom.
    expect(await toggle.locator('li.culprit').count()).toBe(0);
    await page.close();
  });

  it('run page: the failing atom of a check is highlighted and shown whole', async () => {
    await writeBenchReport(real);
    // Under the standard faults the first tap of this run does not take (the screen does not change).
    const { page } = await open(path.join(real, 'report', 'settings-airplane-on', 'senseact-r0.html'));
    const failing = page.locator('section.step', { has: page.locator('li.culprit') }).first();
    expect(await failing.count()).toBe(1);
    await failing.screenshot({ path: path.join(screenshots, 'step-failing-atom.png') });
    const culprit = failing.locator('ul.atoms li.culprit').first();
    expect(await culprit.innerText()).toMatch(/^fail exists\(text="Airplane mode"\) no node matches text="Airplane mode"$/);
    // Highlighted (a coloured outline of its own), and not cut: the atom's box fits in the page and in its column.
    // (Runs in the page: the test's tsconfig has no DOM types, hence the structural casts.)
    const style = await culprit.locator('.atom').evaluate((element) => {
      const page = globalThis as unknown as { getComputedStyle(target: unknown): { outlineStyle: string; borderStyle: string } };
      const computed = page.getComputedStyle(element);
      const box = element as unknown as { scrollWidth: number; clientWidth: number };
      return { outline: computed.outlineStyle, border: computed.borderStyle, overflow: box.scrollWidth <= box.clientWidth + 1 };
    });
    expect(style.outline !== 'none' || style.border !== 'none').toBe(true);
    expect(style.overflow).toBe(true);
    const box = await culprit.boundingBox();
    expect(box !== null && box.x + box.width <= 1280).toBe(true);
    expect(await failing.locator('ul.changes, .notes', { hasText: 'nothing changed' }).count()).toBeGreaterThan(0);
    // Its passing neighbours are not highlighted.
    const passingAtoms = page.locator('ul.atoms li:not(.culprit) > .badge.pass');
    expect(await passingAtoms.count()).toBeGreaterThan(0);
    await page.close();
  });
});
