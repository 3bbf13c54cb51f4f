import { createRequire } from 'node:module';
import type { Frame, Page } from 'playwright-core';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/**
 * axe-core (from npm) in a page or a frame: its serious and critical violations, as `id (impact):
 * targets`. The page's context must bypass CSP so that axe itself can be injected.
 */
export async function seriousViolations(target: Page | Frame, context?: string): Promise<string[]> {
  return violations(target, context, ['serious', 'critical']);
}

/** Every axe-core violation of `impacts` (default: any impact at all), as `id (impact): targets`. */
export async function violations(target: Page | Frame, context?: string, impacts?: readonly string[]): Promise<string[]> {
  if (!(await target.evaluate(() => 'axe' in window))) await target.addScriptTag({ path: AXE });
  const found = await target.evaluate(async (selector) => {
    const axe = (window as unknown as { axe: { run(context: unknown, options: unknown): Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }).axe;
    const { violations } = await axe.run(selector ?? document, { resultTypes: ['violations'] });
    return violations.map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.map((n) => n.target.join(' ')) }));
  }, context);
  return found.filter((v) => !impacts || impacts.includes(v.impact)).map((v) => `${v.id} (${v.impact}): ${v.targets.join(', ')}`);
}
