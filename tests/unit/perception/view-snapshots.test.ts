import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { perceive } from '../../../src/perception/perceive.js';
import { parseHierarchy } from '../../../src/ui/parse-hierarchy.js';
import { corpusDumps, fixtureDumps, readDumps } from './corpus.js';

/** A representative set of the real corpus: both XML dialects (modern and legacy Appium), DroidBot JSON, dialogs, forms, lists. */
const representative = [
  'appium-uia2/Bioto-tron-ai__twitter__page_source.xml',
  'appium-uia2/mvn86-uiautomator-web__tmall-wireless__ui.xml',
  'other/appium-appium__example-notepad__source.xml',
  'other/web-infra-dev-midscene__nexuslauncher__android-world-clock-stopwatch-running.xml',
  'other/GeniusPudding-droidbot_multidevice__permissioncontroller__multi_state_2021-12-13_115601.json',
  'uiautomator-dump/Januariesjm-Navigation-Chatbot__systemui__self_explore_2024-04-03_14-02-54_1.xml',
  'uiautomator-dump/hzx-coder0-PersonalAppAgent__coloros-note__task_MailWeather_2025-04-22_21-05-42_8.xml',
  'uiautomator-dump/docer1990-visiontest__systemui__hierarchy.xml',
];

const snapshotName = (name: string, level: number): string => `__snapshots__/views/${path.basename(name).replace(/\.(xml|json)$/, '')}.level${level}.txt`;

describe('planner view snapshots', () => {
  for (const [name, text] of readDumps(fixtureDumps)) {
    for (const level of [1, 2] as const) {
      it(`fixture ${name} at level ${level}`, async () => {
        await expect(perceive(parseHierarchy(text, { sourceName: name }), { level }).view).toMatchFileSnapshot(snapshotName(name, level));
      });
    }
  }
  const corpus = new Map(readDumps(corpusDumps));
  for (const name of representative) {
    it(`corpus ${name}`, async () => {
      const text = corpus.get(name);
      expect(text, `${name} is missing from ${corpusDumps}`).toBeDefined();
      await expect(perceive(parseHierarchy(text!, { sourceName: name })).view).toMatchFileSnapshot(snapshotName(name, 2));
    });
  }
});
