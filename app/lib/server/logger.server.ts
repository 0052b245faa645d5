import { createRequire } from "node:module";
import pino, { type DestinationStream, type Logger } from "pino";
import type PinoPretty from "pino-pretty";
import type { AppConfig } from "./config.server";
import { getConfig } from "./config.server";
import { processSingleton } from "./process-singleton.server";
import { currentRequestInfo } from "./request-scope.server";

/**
 * The shop's one logger (pino): a JSON object per line on stdout, or readable
 * lines for humans (LOG_FORMAT=pretty, the default when stdout is a terminal). Every line written while a request
 * runs carries its `requestId`. A process singleton because the HTTP server and
 * the framework's server build are separate module graphs that must share one stream.
 */

const current = () => processSingleton<{ logger?: Logger }>("logger", () => ({}));

/** pino-pretty is for a developer's terminal: loaded only when the format is pretty. */
function loadPretty(): typeof PinoPretty {
  return createRequire(import.meta.url)("pino-pretty") as typeof PinoPretty;
}

export function createLogger(
  options: Pick<AppConfig, "logFormat" | "logLevel">,
  destination?: DestinationStream,
): Logger {
  const stream =
    options.logFormat === "pretty"
      ? loadPretty()({
          // Colours on a terminal only: LOG_FORMAT=pretty into a file or a pipe stays plain text.
          colorize: !destination && process.stdout.isTTY === true,
          translateTime: "SYS:HH:MM:ss.l",
          ignore: "pid,hostname",
          sync: true,
          destination: destination ?? 1,
        })
      : // Synchronous: a line written just before the process exits is never lost.
        (destination ?? pino.destination({ fd: 1, sync: true }));
  return pino(
    {
      level: options.logLevel,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      serializers: { err: pino.stdSerializers.err, error: pino.stdSerializers.err },
      mixin() {
        const info = currentRequestInfo();
        return info ? { requestId: info.requestId } : {};
      },
    },
    stream,
  );
}

export function getLogger(): Logger {
  return (current().logger ??= createLogger(getConfig()));
}

/** For tests: log somewhere else (or to the configured place again with undefined). */
export function setLogger(logger: Logger | undefined): void {
  current().logger = logger;
}
