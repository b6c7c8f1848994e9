/**
 * The HTML page as a person opens it: written to a file and loaded in a real browser (Debian's
 * Chromium, headless, driven by puppeteer-core as test/emulator/swaggerPage.test.ts drives it)
 * with JavaScript off and every request but the page's own refused. The findings are read off the
 * rendered table, the charts' bars off the SVG. A screenshot is kept in .work/drift-html/.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import puppeteer, { type Browser, type Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderHtml, UNCLAIMED } from "../../drift/render/html";
import { CLASS_TITLES, FINDING_CLASSES, type Review } from "../../drift/review/model";
import { REPO_ROOT } from "../support/engine";
import { ensureChromium } from "../support/testTools";
import { everyClassReview, FINDINGS, withFailedSources } from "./fixtures/review";

/** Where the pages and the screenshot are kept (test artifacts, not committed). */
const DIR = join(REPO_ROOT, ".work", "drift-html");

let browser: Browser;
beforeAll(async () => {
  const executablePath = await ensureChromium((line) => console.log(line));
  mkdirSync(DIR, { recursive: true });
  // Root on CI: Chromium's sandbox needs a user namespace a container may not give.
  browser = await puppeteer.launch({ executablePath, headless: true, args: ["--no-sandbox"] });
}, 900_000);
afterAll(async () => {
  await browser?.close();
});

/** `review`'s page opened from a file, no script run; `requests` lists every URL the page asked for. */
async function open(review: Review, name: string): Promise<{ page: Page; requests: string[] }> {
  const file = join(DIR, `${name}.html`);
  writeFileSync(file, renderHtml(review));
  const page = await browser.newPage();
  await page.setJavaScriptEnabled(false);
  const requests: string[] = [];
  await page.setRequestInterception(true);
  page.on("request", (request) => {
    requests.push(request.url());
    void (request.url() === pathToFileURL(file).href ? request.continue() : request.abort());
  });
  await page.goto(pathToFileURL(file).href, { waitUntil: "load" });
  return { page, requests };
}

/** An element as laid out: its text as the page shows it (the tests' lib has no DOM types). */
interface Rendered {
  readonly innerText: string;
}

interface Row {
  fingerprint: string;
  cls: string;
  source: string;
  address: string;
  guid: string;
  fields: string;
  message: string;
  advice: string;
}

/** The findings table as the browser rendered it: each cell's visible text. */
function findingRows(page: Page): Promise<Row[]> {
  return page.$$eval("#findings tr.finding", (rows) =>
    rows.map((row) => {
      const text = (name: string) => (row.querySelector(`td.${name}`) as unknown as Rendered).innerText;
      return {
        fingerprint: row.getAttribute("data-fingerprint")!,
        cls: text("class"),
        source: text("source"),
        address: text("address"),
        guid: text("guid"),
        fields: text("fields"),
        message: text("message"),
        advice: text("advice"),
      };
    }),
  );
}

/** Each chart's bars: label, count and the rendered width of its rect. */
function chartBars(page: Page): Promise<{ label: string; count: number; width: number }[][]> {
  return page.$$eval("svg.chart", (charts) =>
    charts.map((chart) =>
      [...chart.querySelectorAll("g.bar")].map((bar) => ({
        label: bar.getAttribute("data-label")!,
        count: Number(bar.getAttribute("data-count")),
        width: bar.querySelector("rect")!.getBoundingClientRect().width,
      })),
    ),
  );
}

describe("renderHtml in headless Chromium", () => {
  it(
    "fits a 1280 px wide window: the findings table wraps its cells instead of widening the page",
    { timeout: 120_000 },
    async () => {
      const { page } = await open(withFailedSources(everyClassReview()), "review-1280");
      try {
        await page.setViewport({ width: 1280, height: 900 });
        await page.screenshot({ path: join(DIR, "review-1280.png"), fullPage: true });
        const widths = (await page.evaluate(
          "({ page: document.documentElement.scrollWidth, window: document.documentElement.clientWidth })",
        )) as { page: number; window: number };
        expect(widths.page).toBe(widths.window);
      } finally {
        await page.close();
      }
    },
  );

  it("shows every finding's class, source, address and GUID in the findings table", { timeout: 120_000 }, async () => {
    const { page, requests } = await open(withFailedSources(everyClassReview()), "review");
    await page.setViewport({ width: 1400, height: 900 });
    await page.screenshot({ path: join(DIR, "review.png"), fullPage: true });

    expect(requests).toHaveLength(1);
    expect(await page.$$eval("script, link, img, iframe, object", (all) => all.length)).toBe(0);

    const rows = await findingRows(page);
    expect(rows.map((r) => r.fingerprint)).toEqual(FINDINGS.map((f) => f.fingerprint));
    rows.forEach((row, i) => {
      const finding = FINDINGS[i]!;
      expect(row.cls).toContain(CLASS_TITLES[finding.class]);
      expect(row.guid).toBe(finding.guid ?? "");
      expect(row.message).toBe(finding.message);
      expect(row.advice).toBe(finding.advice ?? "");
      const owners = finding.owners ?? (finding.owner ? [finding.owner] : []);
      for (const owner of owners) {
        expect(row.address).toContain(owner.address);
        expect(row.source).toContain(`${owner.source.kind} ${owner.source.name}`);
      }
      if (owners.length === 0) expect(row.source).toBe(UNCLAIMED);
      expect(row.address).toContain(finding.location.file);
    });
    const byClass = (cls: string) =>
      rows.find((r) => r.fingerprint === FINDINGS.find((f) => f.class === cls)!.fingerprint)!;
    expect(byClass("differs-from-configuration").address).toContain("module.team.webhooks_subscription.packets");
    expect(byClass("differs-from-state").cls).toMatch(/known$/);
    // Escaped text reads back as written, and no markup of the model's text became an element.
    expect(byClass("differs-from-state").fields).toContain("https://evil.example/?a=1&b=<2>");
    expect(await page.$$eval("in", (all) => all.length)).toBe(0);

    const sources = await page.$$eval("#sources tbody tr", (all) =>
      all.map((tr) => (tr as unknown as Rendered).innerText),
    );
    expect(sources).toHaveLength(4);
    expect(sources[2]).toContain("old.tfstate is not JSON <line 1>");
    expect(sources[3]).toContain("undetermined");
    expect(await page.$eval("#notes", (ul) => (ul as unknown as Rendered).innerText)).toContain("its own account");
    await page.close();
  });

  it("charts the counts by class and by source as SVG bars", { timeout: 120_000 }, async () => {
    const review = everyClassReview();
    const { page } = await open(review, "charts");
    const [byClass, bySource] = await chartBars(page);
    expect(byClass!.map((b) => [b.label, b.count])).toEqual(FINDING_CLASSES.map((c) => [CLASS_TITLES[c], 1]));
    expect(bySource!.map((b) => [b.label, b.count])).toEqual([
      ["pulumi-stack dev", 4],
      ["terraform-directory infra/team", 3],
      [UNCLAIMED, 2],
    ]);
    // Drawn to scale: the longest bar is the largest count.
    const widest = Math.max(...bySource!.map((b) => b.width));
    expect(bySource![0]!.width).toBe(widest);
    expect(bySource![2]!.width).toBeCloseTo(widest / 2, 0);
    await page.close();
  });

  it(
    "shows a secret field as 'secret differs' and never a value, whatever the model holds",
    { timeout: 120_000 },
    async () => {
      const review = everyClassReview();
      const leaky: Review = {
        ...review,
        findings: [
          {
            ...FINDINGS[0]!,
            fields: [{ field: "signature", secret: true, recorded: "sig-secret", live: "sig-other" }],
          },
        ],
      };
      const html = renderHtml(leaky);
      expect(html).not.toMatch(/sig-secret|sig-other/);
      const { page } = await open(leaky, "secret");
      const [row] = await findingRows(page);
      expect(row!.fields.replace(/\s+/g, " ")).toBe("field declared recorded live signature secret differs");
      await page.close();
    },
  );
});
