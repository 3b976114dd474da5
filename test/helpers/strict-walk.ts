import type { Page } from 'playwright-core';

/**
 * What a strict walk of a console page finds wrong, read in the page itself (plain JavaScript, run by Chromium):
 * - code in prose: snake_case or camelCase words, header names like `X-Workspace-Id`, raw timestamps, a refusal
 *   labelled by its HTTP status, Signalbox's own IDs (`ws_…`) and TikTok's long numeric IDs unless in parentheses after
 *   a name, in visible text outside code elements (`code`, `pre`, form controls; folded details are not visible);
 * - a disabled or read-only control that neither it nor its group points at a reason for (`aria-describedby` to an
 *   element with text);
 * - the page, or anything in it, scrolling sideways.
 */
const FIND_PROBLEMS = String.raw`(() => {
  const LITERALS = 'code, pre, kbd, samp, textarea, input, select, script, style, [aria-hidden="true"], .visually-hidden';
  const IN_PROSE = [
    ['snake_case', /\b[a-z]+_[a-z_]*[a-z]\b/],
    ['camelCase', /\b[a-z]{2,}[A-Z][a-z]+[A-Za-z]*\b/],
    ['a header name', /\bX-[A-Z][A-Za-z]*-[A-Za-z-]+/],
    ['a raw timestamp', /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/],
    ['an HTTP status as a label', /\brefused \d{3}\b/i],
    ['a Signalbox ID', /\b(ws|usr|key|inv|ses)_[A-Za-z0-9]{6,}/],
    ['a TikTok ID without its name', /(?<!\()\b\d{15,20}\b(?!\))/],
  ];
  const problems = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (parent === null || parent.closest(LITERALS) !== null || !parent.checkVisibility({ visibilityProperty: true })) continue;
    const text = node.textContent;
    for (const [what, pattern] of IN_PROSE) {
      const found = pattern.exec(text);
      if (found !== null) problems.push(what + ' "' + found[0] + '" in "' + text.trim().slice(0, 160) + '"');
    }
  }
  const hasReason = (element) =>
    (element.getAttribute('aria-describedby') ?? '').split(/\s+/).some((id) => id !== '' && (document.getElementById(id)?.textContent ?? '').trim() !== '');
  const controls = document.querySelectorAll('button:disabled, input:disabled, select:disabled, textarea:disabled, [aria-disabled="true"], input[readonly], textarea[readonly], [aria-readonly="true"]');
  for (const control of controls) {
    if (control.type === 'hidden' || !control.checkVisibility({ visibilityProperty: true })) continue;
    const explained = hasReason(control) || [...document.querySelectorAll('[role="group"], [role="radiogroup"], fieldset')].some((group) => group.contains(control) && hasReason(group));
    if (!explained) problems.push('disabled without a reason: ' + control.tagName.toLowerCase() + ' "' + (control.textContent || control.getAttribute('aria-label') || control.name || '').trim().slice(0, 60) + '"');
  }
  if (document.documentElement.scrollWidth > window.innerWidth) problems.push('the page scrolls sideways: ' + document.documentElement.scrollWidth + ' > ' + window.innerWidth);
  for (const element of document.querySelectorAll('body *')) {
    const overflow = getComputedStyle(element).overflowX;
    if ((overflow === 'auto' || overflow === 'scroll') && element.scrollWidth > element.clientWidth + 1 && element.checkVisibility()) {
      problems.push('scrolls sideways inside: ' + element.tagName.toLowerCase() + '.' + element.className + ' (' + element.scrollWidth + ' > ' + element.clientWidth + ')');
    }
  }
  return problems;
})()`;

/** The problems of the page as it is now (see FIND_PROBLEMS), after two frames so that charts have their size. */
export async function strictProblems(page: Page): Promise<string[]> {
  await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))');
  return (await page.evaluate(FIND_PROBLEMS)) as string[];
}

/**
 * Failed requests to this server (an answer of 400 or more; a request cut by a navigation is no failure) and errors
 * the page logged, from now on, for a walk to assert none.
 */
export function watchFailures(page: Page, serverUrl: string): string[] {
  const failures: string[] = [];
  page.on('response', (response) => {
    if (response.url().startsWith(serverUrl) && response.status() >= 400) failures.push(`${response.status()} ${response.request().method()} ${response.url()}`);
  });
  page.on('requestfailed', (request) => {
    const reason = request.failure()?.errorText ?? '';
    if (request.url().startsWith(serverUrl) && reason !== 'net::ERR_ABORTED') failures.push(`${reason} ${request.method()} ${request.url()}`);
  });
  page.on('console', (message) => {
    if (message.type() === 'error') failures.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => failures.push(`page error: ${error.message}`));
  return failures;
}
