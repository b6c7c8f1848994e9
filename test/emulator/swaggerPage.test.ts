/**
 * The interactive page as a person uses it, in a real browser (Debian's Chromium, headless,
 * driven by puppeteer-core; no browser download): open `/swagger`, switch the version selector
 * to 4-preview, "Try it out" on GetAllWebhookSubscriptions, Execute, and read the answer off the
 * page. A screenshot is kept in .work/swagger/. Without JavaScript the page lists the documents.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import puppeteer, { type Browser, type Page } from "puppeteer-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { API_VERSIONS } from "../../provider/wire";
import { EmulatorHarness, typeScopedBody } from "../support/emulatorHarness";
import { REPO_ROOT } from "../support/engine";
import { ensureChromium } from "../support/testTools";

/** Where the screenshot is kept (a test artifact, not committed). */
const SCREENSHOT = join(REPO_ROOT, ".work", "swagger", "swagger-4-preview.png");

let browser: Browser;
let emulator: EmulatorHarness;
beforeAll(async () => {
  const executablePath = await ensureChromium((line) => console.log(line));
  emulator = await EmulatorHarness.start();
  // Root on CI: Chromium's sandbox needs a user namespace a container may not give.
  browser = await puppeteer.launch({ executablePath, headless: true, args: ["--no-sandbox"] });
}, 900_000);
afterAll(async () => {
  await browser?.close();
  await emulator?.close();
});

/** Waits until the element matching `selector` shows `text` (the page renders as it fetches). */
async function waitForText(page: Page, selector: string, text: string): Promise<void> {
  const found = `document.querySelector(${JSON.stringify(selector)})?.textContent?.includes(${JSON.stringify(text)})`;
  await page.waitForFunction(found, { timeout: 60_000 });
}

/** Clicks the first element matching `selector` once it is visible. */
async function click(page: Page, selector: string): Promise<void> {
  await page.waitForSelector(selector, { visible: true, timeout: 60_000 });
  await page.click(selector);
}

it(
  "runs GetAllWebhookSubscriptions of 4-preview from the page, authorized with dev-builder",
  { timeout: 240_000 },
  async () => {
    const subscribed = await emulator.subscribe(typeScopedBody({ SubscriberURL: "https://hooks.example.com/page" }));
    const page = await browser.newPage();
    await page.setViewport({ width: 1200, height: 1450 });
    await page.goto(`${emulator.url}/swagger`);

    // The version selector starts on the current stable version.
    await page.waitForSelector(".topbar select", { timeout: 60_000 });
    await waitForText(page, ".info .title", "Webhook");
    const options = await page.$$eval(".topbar select option", (all) => all.map((o) => o.textContent));
    expect(options).toEqual([...API_VERSIONS]);
    const preview = await page.$$eval(".topbar select option", (all) =>
      all.find((o) => o.textContent === "4-preview")!.getAttribute("value"),
    );
    await page.select(".topbar select", preview!);
    await waitForText(page, ".info .title", "preview");

    const operation = "#operations-WebHookSubscription-GetAllWebhookSubscriptions";
    await click(page, `${operation} .opblock-summary`);
    await click(page, `${operation} .try-out__btn`);
    await click(page, `${operation} .execute`);
    const status = `${operation} .live-responses-table tr.response .response-col_status`;
    await page.waitForSelector(status, { timeout: 60_000 });
    expect(await page.$eval(status, (cell) => cell.textContent?.trim())).toBe("200");
    const body = await page.$eval(
      `${operation} .live-responses-table tr.response .response-col_description pre`,
      (pre) => pre.textContent,
    );
    const answer = JSON.parse(body ?? "null");
    expect(answer).toEqual([
      expect.objectContaining({ GUID: subscribed.GUID, SubscriberURL: "https://hooks.example.com/page" }),
    ]);
    // The request the page sent: the preview version, and the dev token.
    const curl = await page.$eval(`${operation} .curl-command`, (el) => el.textContent ?? "");
    expect(curl).toContain("api-version=4-preview");
    expect(curl).toContain("Authorization: Bearer dev-builder");

    mkdirSync(join(REPO_ROOT, ".work", "swagger"), { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: false });
    await page.close();
  },
);

it("lists the documents as plain links with JavaScript off", { timeout: 60_000 }, async () => {
  const page = await browser.newPage();
  await page.setJavaScriptEnabled(false);
  await page.goto(`${emulator.url}/swagger`);
  const links = await page.$$eval("a", (all) => all.map((a) => a.getAttribute("href")));
  expect(links).toEqual(API_VERSIONS.map((version) => `/swagger/${version}/swagger.json`));
  await page.close();
});
