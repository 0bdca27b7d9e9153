// The report is tested in headless Chromium on a SYNTHETIC run folder (see
// synthetic-run-folder.ts): hostile app text must show as text and never run.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeBenchReport } from '../../../src/bench/write-bench-report.js';
import { hostileImage, hostileScript, writeSyntheticBench } from './synthetic-run-folder.js';

const chromiumPath = '/usr/bin/chromium';
const launchArgs = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

// Without Chromium this fails (CI installs it, see .ci/run); SENSEACT_SKIP_BROWSER_TESTS=1 skips it knowingly.
describe.skipIf(process.env['SENSEACT_SKIP_BROWSER_TESTS'] === '1')('bench HTML report in headless Chromium', () => {
  let root: string;
  let outDir: string;
  let browser: Browser;

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'senseact-report-'));
    outDir = path.join(root, 'bench');
    await writeSyntheticBench(outDir, 2, { screenshots: true, hostile: true });
    if (!existsSync(chromiumPath)) throw new Error(`${chromiumPath} is missing: install it (apt-get install -y chromium) or set SENSEACT_SKIP_BROWSER_TESTS=1`);
    browser = await chromium.launch({ executablePath: chromiumPath, args: launchArgs });
  });
  afterAll(async () => {
    await browser?.close();
    await rm(root, { recursive: true, force: true });
  });

  async function open(file: string) {
    const page = await browser.newPage();
    const cspViolations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
    });
    await page.goto(pathToFileURL(file).href);
    return { page, cspViolations };
  }

  it('writes one page plus assets, shows hostile app text as text, runs none of it', async () => {
    const report = await writeBenchReport(outDir, { now: () => new Date('2026-11-22T04:00:00Z') });
    expect(report.htmlFile).toBe(path.join(outDir, 'report.html'));
    expect(await readdir(report.assetsDir)).toEqual(['run-0-step-000.png', 'run-1-step-000.png']);
    expect(report.assetFiles).toBe(2);

    const { page, cspViolations } = await open(report.htmlFile);
    expect(await page.evaluate('window.__pwned')).toBeUndefined();
    expect(await page.locator('script').count()).toBe(0);
    expect(await page.locator('[onerror]').count()).toBe(0);
    const text = await page.locator('body').innerText();
    expect(text).toContain(`Create a note ${hostileScript} ${hostileImage}`);
    expect(text).toContain(`open a new note ${hostileScript}`);
    // The wireframe's labels and the reduced view carry the app text too, as text.
    expect(await page.locator('svg.wireframe text').allTextContents()).toContain('Saved <script>window.__pwned = "script"…');
    expect(await page.locator('pre').first().textContent()).toContain(hostileImage);
    expect(cspViolations).toEqual([]);
    await page.close();
  });

  it('shows the summary, the step timeline, screenshots, verdicts, gate and collapsible model calls', async () => {
    const report = await writeBenchReport(outDir);
    const { page } = await open(report.htmlFile);
    expect(await page.locator('h1').innerText()).toBe('SenseAct bench: suite synthetic, oracle policy (reference solutions, no model)');
    expect(await page.locator('table.summary').first().locator('tbody tr').count()).toBe(1);
    expect(await page.locator('table.summary').nth(1).locator('tbody tr').allInnerTexts()).toEqual(['com.example.notes\t2/2 (100.0%)']);
    expect(await page.locator('table.summary tbody td').first().innerText()).toBe('senseact');
    expect(await page.locator('section.run').count()).toBe(2);
    expect(await page.locator('section.run').first().locator('article.step').count()).toBe(2);
    // Step 0 has a screenshot (copied into the assets folder, loaded under the CSP); step 1 gets a wireframe.
    const image = page.locator('section.run').first().locator('article.step').first().locator('img');
    expect(await image.evaluate((element) => (element as unknown as { naturalWidth: number }).naturalWidth)).toBe(4);
    expect(await page.locator('section.run').first().locator('article.step').nth(1).locator('svg.wireframe').count()).toBe(1);
    const firstStep = await page.locator('section.run').first().locator('article.step').first().innerText();
    expect(firstStep).toContain('verify-end');
    expect(firstStep).toContain('VLM gate open');
    expect(firstStep).toContain('planner · scripted · 900+40 tokens');
    const predicates = page.locator('section.run').first().locator('article.step').nth(1).locator('details', { hasText: 'predicate outcomes' });
    await predicates.locator('summary').click();
    expect(await predicates.locator('li').allInnerTexts()).toEqual([
      'pass unit n1a2b the screen changed',
      `pass expectation exists(text="Saved") text="Saved" matches 1 node ${hostileScript} ${hostileImage}`,
    ]);
    // The style sheet is allowed by its CSP hash: it applies.
    expect(await page.evaluate('getComputedStyle(document.body).maxWidth')).toBe('1200px');
    // Model calls are collapsed until opened.
    const call = page.locator('section.run').first().locator('details', { hasText: 'model call 000.json (planner)' }).first();
    expect(await call.evaluate((element) => (element as unknown as { open: boolean }).open)).toBe(false);
    await call.locator('summary').click();
    expect(await call.locator('pre').innerText()).toBe(`{"intent":"save"} ${hostileScript} ${hostileImage}`);
    expect(await call.locator('.notes').innerText()).toBe('scripted · 900+40 tokens · full prompt and reply: steps/000/model-calls/000.json');
    expect(await call.locator('a').getAttribute('href')).toBe('traces/note-0/senseact-r0/steps/000/model-calls/000.json');
    await page.close();
  });

  it('has a CSP that blocks an inline script even if one got into the page', async () => {
    const report = await writeBenchReport(outDir);
    const tampered = path.join(outDir, 'tampered.html');
    const markup = await readFile(report.htmlFile, 'utf8');
    await writeFile(tampered, markup.replace('<body>', '<body><script>window.__pwned = "tampered";</script><img src="x" onerror="window.__pwned = \'onerror\'">'));
    const { page, cspViolations } = await open(tampered);
    expect(await page.evaluate('window.__pwned')).toBeUndefined();
    expect(cspViolations.length).toBeGreaterThan(0);
    await page.close();
  });
});
