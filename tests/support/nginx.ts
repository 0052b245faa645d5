import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import path from "node:path";

/**
 * Debian's nginx with the shipped configuration (deploy/nginx/shop.conf) in front of a shop, for the test
 * (tests/integration/nginx-cache.test.ts) and the bench (bench/behind-cache.ts).
 */

const NGINX = "/usr/sbin/nginx";

/**
 * deploy/nginx/shop.conf with this run's ports and folders, inside a main configuration of its own: nginx runs as
 * the current user with its own prefix, temporary folders and pid file.
 */
export function nginxConfig(options: { dir: string; listenPort: number; shopPort: number }): string {
  const shipped = readFileSync("deploy/nginx/shop.conf", "utf8");
  const site = shipped
    .replace(/^(\s*)listen 80;/m, `$1listen 127.0.0.1:${options.listenPort};`)
    .replace(/^(\s*)server 127\.0\.0\.1:3000;/m, `$1server 127.0.0.1:${options.shopPort};`)
    .replace("/var/cache/nginx/shop", path.join(options.dir, "cache"));
  if (site === shipped || !site.includes(String(options.shopPort)) || !site.includes(options.dir)) {
    throw new Error(
      "deploy/nginx/shop.conf no longer has the listen, upstream and cache lines that are replaced to run it here",
    );
  }
  const temp = (name: string) => path.join(options.dir, name);
  return `
worker_processes 1;
user ${userInfo().username};
error_log ${temp("error.log")} warn;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${temp("client-body")};
  proxy_temp_path ${temp("proxy")};
  fastcgi_temp_path ${temp("fastcgi")};
  uwsgi_temp_path ${temp("uwsgi")};
  scgi_temp_path ${temp("scgi")};
${site}
}
`;
}

export interface NginxProcess {
  base: string;
  stop(): Promise<void>;
}

/** nginx with the shipped configuration on `listenPort` in front of the shop on `shopPort`, in the foreground. */
export async function startNginx(listenPort: number, shopPort: number): Promise<NginxProcess> {
  if (!existsSync(NGINX)) {
    throw new Error(
      `${NGINX} is missing: install Debian's nginx (apt-get install -y nginx; .ci/run does) to run this test`,
    );
  }
  const dir = mkdtempSync(path.join(tmpdir(), "shop-nginx-"));
  mkdirSync(path.join(dir, "cache"));
  const conf = path.join(dir, "nginx.conf");
  writeFileSync(conf, nginxConfig({ dir, listenPort, shopPort }));
  const output: string[] = [];
  const child: ChildProcess = spawn(
    NGINX,
    [
      "-p",
      dir,
      "-c",
      conf,
      "-e",
      path.join(dir, "error.log"),
      "-g",
      `daemon off; pid ${path.join(dir, "nginx.pid")};`,
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  child.stdout!.on("data", (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => output.push(chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const base = `http://127.0.0.1:${listenPort}`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    try {
      await fetch(`${base}/healthz`);
      break;
    } catch {
      const log = path.join(dir, "error.log");
      if (child.exitCode !== null || Date.now() > deadline) {
        throw new Error(
          `nginx did not start:\n${output.join("")}\n${existsSync(log) ? readFileSync(log, "utf8") : ""}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return {
    base,
    async stop() {
      if (child.exitCode === null) child.kill("SIGQUIT");
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
