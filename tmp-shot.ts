import { spawn } from "node:child_process";
import path from "node:path";
import { chromium } from "@playwright/test";
import { startEmbeddedPostgres } from "./app/lib/embedded-postgres.server";
const [label, buildDir] = process.argv.slice(2);
const PORT = 4332, BASE = `http://127.0.0.1:${PORT}`;
const db = await startEmbeddedPostgres({ dataDir: path.resolve(".data-bench"), log: () => {} });
const server = spawn(process.execPath, ["--import", "tsx", "server/index.ts"], { env: { ...process.env, NODE_ENV: "production", DATABASE_URL: db.url, SESSION_SECRET: "bench-session-secret-0123456789abcdef", BUILD_DIR: buildDir, PORT: String(PORT), HOST: "127.0.0.1", APP_URL: BASE, LOG_REQUESTS: "false", DATA_DIR: path.resolve(".data-bench") }, stdio: ["ignore", "ignore", "inherit"] });
try {
  for (let i = 0; i < 200; i++) { try { if ((await fetch(`${BASE}/healthz`)).ok) break; } catch {} await new Promise(r => setTimeout(r, 250)); }
  const login = await fetch(`${BASE}/api/auth/login`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ email: "shopper@example.com", password: process.env.SHOPPER_PASSWORD }) });
  const cookies = login.headers.getSetCookie().map(c => { const [nv] = c.split(";"); const [name, ...v] = nv!.split("="); return { name: name!, value: v.join("="), url: BASE }; });
  if (process.env.HTML_ONLY) {
    const cookie = cookies.map((c) => `${c.name}=${c.value}`).join("; ");
    const { writeFileSync } = await import("node:fs");
    for (const p of ["/shop/listing", "/shop/home", "/unauth-page", "/shop/cart", "/auth/login", "/nowhere"]) {
      const r = await fetch(BASE + p, { headers: p === "/auth/login" ? {} : { Cookie: cookie }, redirect: "manual" });
      writeFileSync(`/tmp/h10b-shots/${label}${p.replaceAll("/", "_")}.html`, `${r.status}\n${(await r.text()).replace(/nonce="[^"]*"/g, 'nonce="N"')}`);
    }
    throw new Error("done");
  }
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium" });
  for (const js of [true, false]) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, javaScriptEnabled: js });
    await context.addCookies(cookies);
    const page = await context.newPage();
    for (const p of ["/shop/listing", "/shop/home", "/unauth-page", "/shop/cart"]) {
      await page.goto(BASE + p); await page.waitForLoadState("networkidle");
      await page.screenshot({ path: `/tmp/h10b-shots/${label}-${js ? "js" : "nojs"}${p.replaceAll("/", "_")}.png`, fullPage: true });
    }
    await context.close();
  }
  await browser.close();
} finally { server.kill("SIGTERM"); await new Promise(r => server.once("exit", r)); await db.stop(); }
