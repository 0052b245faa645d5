// Flat vector artwork for the demo catalogue. Pure functions returning SVG
// markup: no scripts, no event handlers, no external references.

import { BRAND_LABELS, productKind } from "./catalog.js";
import type { Brand, ItemKind } from "./catalog.js";

type Pattern = "stripes" | "dots" | "check" | null;

interface Palette {
  main: string;
  dark: string;
  light: string;
  accent: string;
  bg: string;
  bg2: string;
  stitch: string;
  pattern: Pattern;
}

const METAL = "#c8ccd2";
const GOLD = "#d8a93f";
const SOLE = "#f4f1ea";

/** FNV-1a 32-bit hash. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function clamp(n: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, n));
}

/** HSL (degrees, percent, percent) to #rrggbb. */
function hsl(h: number, s: number, l: number): string {
  const hue = ((h % 360) + 360) % 360;
  const sat = clamp(s, 0, 100) / 100;
  const lig = clamp(l, 0, 100) / 100;
  const a = sat * Math.min(lig, 1 - lig);
  const f = (n: number): string => {
    const k = (n + hue / 30) % 12;
    const v = lig - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(v * 255)
      .toString(16)
      .padStart(2, "0");
  };
  return `#${f(0)}${f(8)}${f(4)}`;
}

function escapeXml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

function palette(slug: string, title: string, kind: ItemKind): Palette {
  const t = title.toLowerCase();
  const h0 = hash(slug);
  let h = h0 % 360;
  let s = 34 + ((h0 >>> 9) % 24);
  let l = 44 + ((h0 >>> 14) % 11);
  const neutral = (h0 >>> 20) % 6 === 0;
  if (neutral) {
    s = 6;
    l = (h0 >>> 23) % 2 === 0 ? 30 : 62;
  }
  if (/denim|jean|overall|trucker/.test(t)) {
    h = 212 + (h0 % 14);
    s = 48;
    l = 40 + ((h0 >>> 14) % 14);
  } else if (
    /leather|suede|chelsea|loafer|hiking/.test(t) &&
    !["sneaker", "bag", "sunglasses"].includes(kind)
  ) {
    h = 22 + (h0 % 12);
    s = 50;
    l = 34 + ((h0 >>> 14) % 10);
  }
  const pattern: Pattern = /stripe/.test(t)
    ? "stripes"
    : /floral|print|graphic/.test(t)
      ? "dots"
      : /cashmere|check|flannel|plaid/.test(t)
        ? "check"
        : null;
  return {
    main: hsl(h, s, l),
    dark: hsl(h, s + 5, l - 24),
    light: hsl(h, s - 5, l + 20),
    accent: neutral ? hsl(h0 % 360, 70, 55) : hsl(h + 160, 65, 62),
    bg: hsl(h + 25, 40, 95),
    bg2: hsl(h + 25, 45, 88),
    stitch: /denim|jean|overall/.test(t) ? GOLD : hsl(h, s, l + 30),
    pattern,
  };
}

function patternDefs(c: Palette): string {
  if (c.pattern === null) return "";
  const inner =
    c.pattern === "stripes"
      ? `<path d="M0 12h36" stroke="${c.accent}" stroke-width="12"/>`
      : c.pattern === "dots"
        ? `<circle cx="12" cy="12" r="6" fill="${c.accent}"/><circle cx="30" cy="30" r="5" fill="${c.light}"/>`
        : `<path d="M0 9h36M9 0v36" stroke="${c.light}" stroke-width="6" opacity=".7"/>`;
  return `<defs><pattern id="p" width="36" height="36" patternUnits="userSpaceOnUse">${inner}</pattern></defs>`;
}

/** Main silhouette path plus the optional pattern overlay. */
function shape(c: Palette, d: string, fill = c.main): string {
  if (c.pattern === null || fill !== c.main) return `<path d="${d}" fill="${fill}"/>`;
  return `<path d="${d}" fill="${fill}" stroke="none"/><path d="${d}" fill="url(#p)"/>`;
}

function line(d: string, color: string, width?: number, extra = ""): string {
  const w = width === undefined ? "" : ` stroke-width="${width}"`;
  return `<path d="${d}" fill="none" stroke="${color}"${w}${extra}/>`;
}

const DASH = ` stroke-dasharray="7 7"`;

const LONG_SLEEVE_BODY =
  "M215 120L262 105Q300 140 338 105L385 120Q430 135 445 190L488 430L440 442L398 260V480H202V260L160 442L112 430L155 190Q170 135 215 120Z";
const CUFFS = "M117 402L165 414M483 402L435 414";

type Renderer = (c: Palette, t: string) => string;

const RENDER: Record<ItemKind, Renderer> = {
  tshirt: (c, t) => {
    const body =
      "M215 120L262 105Q300 140 338 105L385 120L475 185L432 262L392 238V480H208V238L168 262L125 185Z";
    let d = shape(c, body) + line("M143 200L180 272M457 200L420 272", c.dark, 4);
    if (/polo/.test(t)) {
      d += `<path d="M262 104L300 148L280 168L244 126Z" fill="${c.light}"/><path d="M338 104L300 148L320 168L356 126Z" fill="${c.light}"/>`;
      d +=
        line("M300 148V225", c.dark, 4) +
        `<circle cx="300" cy="180" r="6" fill="${c.dark}"/><circle cx="300" cy="208" r="6" fill="${c.dark}"/>`;
    } else {
      d += line("M258 108Q300 165 342 108", c.dark, 6);
      if (c.pattern === null) d += `<circle cx="345" cy="200" r="16" fill="${c.accent}" stroke="none"/>`;
    }
    return d;
  },
  shirt: (c, t) => {
    let d = shape(c, LONG_SLEEVE_BODY) + line(CUFFS, c.dark, 4);
    d += `<path d="M262 103L300 145L268 170L244 114Z" fill="${c.light}"/><path d="M338 103L300 145L332 170L356 114Z" fill="${c.light}"/>`;
    d += line("M300 145V480", c.dark, 4);
    for (const y of [200, 260, 320, 380, 440])
      d += `<circle cx="312" cy="${y}" r="6" fill="${c.dark}" stroke="none"/>`;
    d += `<path d="M330 200H375V250L352 262L330 250Z" fill="none" stroke="${c.dark}" stroke-width="4"/>`;
    if (/denim|western/.test(t))
      d += line("M215 175Q258 190 290 168M385 175Q342 190 310 168", c.stitch, 4, DASH);
    return d;
  },
  tank: (c, t) => {
    const bra = /\bbra\b/.test(t);
    const body = bra
      ? "M238 130L266 130Q300 190 334 130L362 130Q365 220 402 250V350H198V250Q235 220 238 130Z"
      : "M238 105L266 105Q300 170 334 105L362 105Q365 195 402 228V480H198V228Q235 195 238 105Z";
    let d = shape(c, body);
    d += bra
      ? `<path d="M198 315H402V350H198Z" fill="${c.dark}"/>`
      : line("M198 450H402", c.dark, 4) + line("M250 130V470M350 130V470", c.light, 3, ` opacity=".6"`);
    return d;
  },
  sweater: (c, t) => {
    let d = shape(c, LONG_SLEEVE_BODY) + line(CUFFS, c.dark, 4) + line("M202 450H398", c.dark, 4);
    let ribs = "";
    for (let x = 215; x < 398; x += 18) ribs += `M${x} 455V476`;
    d += line(ribs, c.dark, 2);
    if (/cardigan/.test(t)) {
      d += line("M262 105L300 210V480", c.dark, 5) + line("M338 105L300 210", c.dark, 5);
      for (const y of [250, 310, 370, 430]) d += `<circle cx="312" cy="${y}" r="7" fill="${c.light}"/>`;
    } else {
      d += line("M258 108Q300 165 342 108", c.dark, 6) + line("M266 112Q300 150 334 112", c.dark, 3);
      if (c.pattern === null) d += `<path d="M202 300H398V330H202Z" fill="${c.accent}" stroke="none"/>`;
    }
    return d;
  },
  hoodie: (c) => {
    let d = `<path d="M240 128Q232 48 300 44Q368 48 360 128Z" fill="${c.main}"/>`;
    d += shape(c, LONG_SLEEVE_BODY) + line(CUFFS, c.dark, 4) + line("M202 450H398", c.dark, 4);
    d += `<path d="M262 112Q300 62 338 112Q300 150 262 112Z" fill="${c.dark}"/>`;
    d += line("M286 136L282 215M314 136L318 215", c.light, 5);
    d += `<path d="M235 345H365L388 430H212Z" fill="${c.light}" opacity=".55"/>`;
    return d;
  },
  jacket: (c, t) => {
    const coat = /coat|parka|trench/.test(t);
    const tailored = /blazer|coat|trench/.test(t);
    const body = coat ? LONG_SLEEVE_BODY.replace("V480H202", "V535H202") : LONG_SLEEVE_BODY;
    const hem = coat ? 535 : 480;
    let d = shape(c, body) + line(CUFFS, c.dark, 4);
    if (tailored) {
      d += `<path d="M262 104L300 262L262 236L238 150Z" fill="${c.light}"/><path d="M338 104L300 262L338 236L362 150Z" fill="${c.light}"/>`;
      d += line(`M300 262V${hem}`, c.dark, 4);
      for (const y of [300, 360]) d += `<circle cx="314" cy="${y}" r="8" fill="${c.dark}" stroke="none"/>`;
      d += line("M222 370H270M330 370H378", c.dark, 5);
    } else {
      d += `<path d="M250 110L262 80Q300 98 338 80L350 110Q300 135 250 110Z" fill="${c.light}"/>`;
      d += line(`M300 125V${hem}`, c.dark, 5) + line(`M300 125V${hem}`, METAL, 2, DASH);
      if (/padded|puffer|quilted/.test(t))
        d += line("M202 300H398M202 370H398M202 430H398M160 260L195 250M440 260L405 250", c.dark, 3);
      d += line("M222 340L262 360M378 340L338 360", c.dark, 5);
      if (/track|stripe/.test(t) || /^kids.*tracksuit/.test(t))
        d += line("M160 195L118 420M440 195L482 420", c.accent, 8);
      if (/denim|trucker/.test(t)) d += line("M222 200H280M320 200H378", c.stitch, 4, DASH);
      if (/sherpa/.test(t))
        d += `<path d="M250 110L262 80Q300 98 338 80L350 110Q300 135 250 110Z" fill="#f3ead8"/>`;
    }
    return d;
  },
  vest: (c) => {
    const body = "M230 110L265 100Q300 135 335 100L370 110Q372 190 410 225V480H190V225Q228 190 230 110Z";
    let d = shape(c, body);
    d += line("M190 275H410M190 335H410M190 395H410M196 450H404M228 180H372", c.dark, 3);
    d += line("M300 130V480", c.dark, 5) + line("M300 130V480", METAL, 2, DASH);
    d += `<path d="M262 102L268 78Q300 92 332 78L338 102Q300 124 262 102Z" fill="${c.light}"/>`;
    return d;
  },
  trousers: (c, t) => {
    let body = "M205 100H395L418 500H322L300 200L278 500H182Z";
    if (/legging/.test(t)) body = "M215 100H385L372 500H320L300 210L280 500H228Z";
    if (/wide/.test(t)) body = "M210 100H390L440 500H315L300 220L285 500H160Z";
    const overalls = /overall/.test(t);
    let d = "";
    if (overalls) {
      d += `<g transform="translate(300 300) scale(.85) translate(-300 -300)">`;
      d += `<path d="M228 -25H256V30H228ZM344 -25H372V30H344Z" fill="${c.dark}"/><path d="M225 20H375V110H225Z" fill="${c.main}"/>`;
      d += `<circle cx="242" cy="36" r="8" fill="${GOLD}"/><circle cx="358" cy="36" r="8" fill="${GOLD}"/>`;
      d += `<path d="M262 40H338V85H262Z" fill="none" stroke="${c.stitch}" stroke-width="4"${DASH}/>`;
    }
    d += shape(c, body) + line("M203 135H397", c.dark, 5);
    d += line("M300 135V200", c.dark, 4);
    if (/jogger|track|pyjama/.test(t)) {
      d += line("M188 470H276M324 470H412", c.dark, 4) + line("M290 118L285 160M310 118L315 160", c.light, 4);
      if (/track/.test(t)) d += line("M212 150L192 465M388 150L408 465", c.accent, 8);
    } else if (!/legging/.test(t)) {
      d += line("M214 138Q250 150 256 190M386 138Q350 150 344 190", c.dark, 4);
      for (const x of [225, 300, 375])
        d += `<path d="M${x - 5} 98h10v40h-10Z" fill="${c.dark}" stroke="none"/>`;
    }
    if (/jean|denim|overall/.test(t))
      d += line("M222 145Q252 158 258 196M378 145Q348 158 342 196M290 140V195", c.stitch, 3, DASH);
    if (/cargo/.test(t))
      d += `<path d="M186 280H238V350H190Z" fill="${c.light}"/><path d="M414 280H362V350H410Z" fill="${c.light}"/>`;
    if (overalls) d += "</g>";
    return d;
  },
  shorts: (c, t) => {
    const body = "M200 150H400L425 390L318 405L300 275L282 405L175 390Z";
    let d = shape(c, body) + line("M202 185H398", c.dark, 5) + line("M300 185V260", c.dark, 4);
    d += line("M208 190Q240 200 246 235M392 190Q360 200 354 235", c.dark, 4);
    if (/running|training|sport/.test(t))
      d +=
        line("M212 200L186 385M388 200L414 385", c.accent, 7) +
        line("M290 168L286 205M310 168L314 205", c.light, 4);
    return d;
  },
  dress: (c, t) => {
    const body = "M250 95H275Q300 125 325 95H350L362 190L338 262L450 500H150L262 262L238 190Z";
    let d = "";
    if (/slip|satin/.test(t)) d += line("M250 95L252 60M350 95L348 60", c.dark, 5);
    d += shape(c, body) + `<path d="M262 262H338L342 276H258Z" fill="${c.dark}"/>`;
    d += line("M286 280L250 492M314 280L350 492M300 280V495", c.dark, 3);
    if (/wrap/.test(t))
      d +=
        line("M250 95L338 262M350 95L300 180", c.dark, 4) +
        line("M338 270L372 330M342 270L386 318", c.dark, 6);
    if (/satin|slip/.test(t)) d += line("M180 470Q240 380 280 290", c.light, 6, ` opacity=".6"`);
    return d;
  },
  skirt: (c, t) => {
    const body = "M225 150H375L445 450H155Z";
    let d = shape(c, body) + `<path d="M222 150H378V188H222Z" fill="${c.dark}"/>`;
    if (/denim|a-line/.test(t)) {
      d += line("M300 188V290", c.dark, 4) + line("M292 190V285", c.stitch, 3, DASH);
      d += `<path d="M230 230H278V290H222Z" fill="none" stroke="${c.stitch}" stroke-width="4"${DASH}/>`;
      d += `<path d="M370 230H322V290H378Z" fill="none" stroke="${c.stitch}" stroke-width="4"${DASH}/>`;
    } else {
      d += line("M255 190L215 448M285 190L275 448M315 190L325 448M345 190L385 448", c.dark, 3);
    }
    return d;
  },
  sneaker: (c, t) => {
    const platform = /platform|chunky/.test(t);
    const sole = platform
      ? "M92 375V430Q92 462 130 462H478Q518 462 518 425V375Z"
      : "M95 385V405Q95 440 135 440H470Q515 440 515 400V385Z";
    let d = `<path d="M248 268L282 222Q300 214 308 236L300 285Z" fill="${c.light}"/>`;
    d += shape(
      c,
      "M108 390L110 262Q112 236 140 238L205 246Q235 292 292 286L330 282Q395 300 440 330Q505 350 510 390Z",
    );
    d += `<path d="${sole}" fill="${SOLE}"/>` + line(platform ? "M95 410H515" : "M98 410H512", c.dark, 3);
    d += line("M150 362Q265 352 380 300", c.accent, 14);
    d += line("M298 290L318 262M325 296L346 270M352 305L374 281", c.light, 6);
    d += line("M448 334Q470 360 468 390", c.dark, 4);
    if (/light-up|kids/.test(t))
      for (const x of [180, 260, 340, 420])
        d += `<circle cx="${x}" cy="424" r="7" fill="${hsl(x, 90, 60)}" stroke="none"/>`;
    if (/air|cushion/.test(t)) d += `<path d="M140 392H220V420H140Z" fill="${c.accent}" opacity=".6"/>`;
    return d;
  },
  boot: (c, t) => {
    const heel = /heel/.test(t);
    let d = shape(c, "M162 120H290L296 316Q330 330 400 340Q492 352 498 412H150Q146 250 162 120Z");
    d += heel
      ? `<path d="M150 408H245L238 472H168Z" fill="${c.dark}"/><path d="M245 408H498Q498 430 478 430H245Z" fill="${c.dark}"/>`
      : `<path d="M140 406H508Q512 448 488 448H140Z" fill="${/hiking|terrex/.test(t) ? "#3a3a3a" : c.dark}"/>`;
    if (/chelsea/.test(t)) {
      d +=
        `<path d="M205 160Q235 240 212 330H262Q282 240 250 160Z" fill="${c.dark}"/>` +
        line("M285 120L290 80H305L300 122", c.dark, 5);
    } else if (/hiking|terrex/.test(t)) {
      d += `<path d="M148 120H294V152H148Z" fill="${c.accent}"/>`;
      d += line("M270 180L300 190M272 225L302 235M276 270L306 280M290 310L330 315", c.light, 6);
      d += line("M160 388H490", c.accent, 6);
    } else {
      d += line("M280 140V320", c.dark, 4) + line("M270 140V320", METAL, 3, DASH);
    }
    return d;
  },
  sandal: (c, t) => {
    let d = `<path d="M95 392Q100 370 140 372L465 365Q510 365 510 392Q505 420 470 420H130Q95 420 95 392Z" fill="${/cork/.test(t) ? "#cfa57a" : c.light}"/>`;
    d += line("M100 405H505", c.dark, 3);
    if (/slide/.test(t)) {
      d += shape(c, "M200 372Q225 306 325 300Q425 306 450 366Z");
      d += `<path d="M275 328H375V346H275Z" fill="${c.accent}" stroke="none"/>`;
    } else if (/flip/.test(t)) {
      d +=
        line("M180 374Q270 300 390 300Q420 320 420 368", c.dark, 18) +
        line("M180 374Q270 300 390 300Q420 320 420 368", c.main, 10);
    } else {
      d +=
        shape(c, "M200 372Q265 285 335 370H312Q265 315 222 372Z") +
        shape(c, "M335 370Q390 300 448 366H426Q390 325 356 370Z");
      d +=
        line("M130 372Q118 280 205 275Q245 285 238 345", c.dark, 16) +
        line("M130 372Q118 280 205 275Q245 285 238 345", c.main, 8);
      d += `<path d="M196 268H216V286H196Z" fill="${GOLD}"/>`;
    }
    return d;
  },
  loafer: (c) => {
    let d = `<path d="M105 398H505Q510 425 490 428H115Q100 425 105 398Z" fill="${c.dark}"/><path d="M112 420H185V446H118Z" fill="${c.dark}"/>`;
    d += shape(c, "M110 400L112 318Q115 290 150 295L260 308Q340 300 420 330Q500 355 505 400Z");
    d += line("M150 300Q210 330 270 308", c.dark, 5);
    d += `<path d="M282 318Q340 348 402 324L394 345Q340 372 288 342Z" fill="${c.dark}"/>`;
    d += line("M330 300Q390 300 440 340", c.light, 4, ` opacity=".7"`);
    return d;
  },
  cap: (c) => {
    let d = shape(c, "M150 350Q150 170 300 165Q450 170 450 350Z");
    d += line("M300 168Q250 240 238 345M300 168Q350 240 362 345", c.dark, 4);
    d += `<circle cx="300" cy="168" r="12" fill="${c.dark}"/>`;
    d += `<path d="M265 250H335V295H265Z" fill="${c.accent}" stroke="none"/>`;
    d += `<circle cx="200" cy="255" r="5" fill="${c.dark}" stroke="none"/><circle cx="400" cy="255" r="5" fill="${c.dark}" stroke="none"/>`;
    d += `<path d="M122 400Q300 290 478 400Q486 428 458 430Q300 350 142 430Q114 428 122 400Z" fill="${c.dark}"/>`;
    d += line("M150 404Q300 322 450 404", c.main, 4, ` opacity=".6"`);
    return d;
  },
  beanie: (c, t) => {
    let d = "";
    if (/bobble|pom/.test(t)) d += `<circle cx="300" cy="165" r="42" fill="${c.accent}"/>`;
    d += shape(c, "M165 410Q160 185 300 180Q440 185 435 410Z");
    d += line(
      "M210 350Q205 260 240 205M260 350Q258 250 275 190M340 350Q342 250 325 190M390 350Q395 260 360 205",
      c.dark,
      3,
    );
    d += `<path d="M150 360Q300 335 450 360L455 440Q300 418 145 440Z" fill="${c.light}"/>`;
    let ribs = "";
    for (let x = 175; x <= 425; x += 25) ribs += `M${x} 360V432`;
    d += line(ribs, c.dark, 3);
    return d;
  },
  bag: (c, t) => {
    let d = "";
    if (/duffel/.test(t)) {
      d += line("M220 240Q230 140 300 140Q370 140 380 240", c.dark, 16);
      d += shape(c, "M120 270Q120 230 170 230H430Q480 230 480 270V440Q480 470 450 470H150Q120 470 120 440Z");
      d += line("M150 248H450", METAL, 4, DASH) + line("M175 235V465M425 235V465", c.accent, 10);
    } else if (/crossbody|clutch/.test(t)) {
      d += line("M185 240Q300 -20 415 240", c.dark, 10);
      d += shape(c, "M170 250Q170 230 190 230H410Q430 230 430 250V450Q430 470 410 470H190Q170 470 170 450Z");
      d += `<path d="M170 250Q170 230 190 230H410Q430 230 430 250V340Q300 380 170 340Z" fill="${c.dark}"/>`;
      d += `<circle cx="300" cy="356" r="13" fill="${GOLD}"/>`;
    } else {
      d += line("M225 250Q225 120 300 120Q375 120 375 250", c.dark, 16);
      d += shape(c, "M160 240H440L465 480Q465 495 450 495H150Q135 495 135 480Z");
      d +=
        line("M158 272H442", c.dark, 4) + `<path d="M255 340H345V400H255Z" fill="${c.light}" stroke="none"/>`;
    }
    return d;
  },
  backpack: (c) => {
    let d = line("M270 125Q270 82 300 82Q330 82 330 125", c.dark, 14);
    d += shape(
      c,
      "M190 170Q190 120 245 120H355Q410 120 410 170L420 470Q420 495 395 495H205Q180 495 180 470Z",
    );
    d += `<path d="M220 340H380Q395 340 395 355V465Q395 478 380 478H220Q205 478 205 465V355Q205 340 220 340Z" fill="${c.light}"/>`;
    d += line("M215 215Q300 175 385 215", c.dark, 4) + line("M205 370H395", c.dark, 3);
    d += `<path d="M290 360H310V392H290Z" fill="${c.accent}" stroke="none"/>`;
    return d;
  },
  wallet: (c) => {
    let d = `<path d="M175 175H335V250H175Z" fill="${c.accent}" transform="rotate(-8 255 210)"/>`;
    d += shape(
      c,
      "M150 210H450Q470 210 470 230V410Q470 430 450 430H150Q130 430 130 410V230Q130 210 150 210Z",
    );
    d += `<path d="M150 225H450Q455 225 455 230V415H145V230Q145 225 150 225Z" fill="none" stroke="${c.light}" stroke-width="3"${DASH}/>`;
    d += line("M300 212V428", c.dark, 4);
    return d;
  },
  belt: (c) => {
    let d = shape(c, "M60 270H500L545 300L500 330H60Z");
    d += line("M60 280H500M60 320H500", c.light, 3, DASH);
    d += `<rect x="150" y="245" width="100" height="110" rx="14" fill="none" stroke="${c.dark}" stroke-width="22"/>`;
    d += `<rect x="150" y="245" width="100" height="110" rx="14" fill="none" stroke="${METAL}" stroke-width="14"/>`;
    d += line("M200 300H275", METAL, 10) + `<path d="M290 262H318V338H290Z" fill="${c.dark}"/>`;
    for (const x of [370, 410, 450]) d += `<circle cx="${x}" cy="300" r="7" fill="${c.dark}" stroke="none"/>`;
    return d;
  },
  watch: (c, t) => {
    const digital = /digital|sport/.test(t);
    let d = shape(c, "M250 55H350V545H250Z");
    for (const y of [440, 470, 500]) d += `<circle cx="300" cy="${y}" r="6" fill="${c.dark}" stroke="none"/>`;
    d += `<path d="M405 285H430V315H405Z" fill="${METAL}"/>`;
    if (digital) {
      d += `<rect x="190" y="190" width="220" height="220" rx="50" fill="${c.dark}"/>`;
      d += `<rect x="225" y="250" width="150" height="100" rx="12" fill="#cfe6c8"/>`;
      d += `<text x="300" y="318" text-anchor="middle" font-family="monospace" font-size="44" font-weight="700" fill="#1f2d1c" stroke="none">10:08</text>`;
    } else {
      d += `<circle cx="300" cy="300" r="110" fill="${METAL}"/><circle cx="300" cy="300" r="88" fill="#fbfaf7"/>`;
      d += line("M300 220V236M300 364V380M220 300H236M364 300H380", c.dark, 5);
      d +=
        line("M300 300L300 246M300 300L340 322", c.dark, 6) +
        `<circle cx="300" cy="300" r="8" fill="${c.dark}"/>`;
    }
    return d;
  },
  sunglasses: (c, t) => {
    const round = /round/.test(t);
    const lenses = round
      ? "M90 300A90 90 0 1 0 270 300A90 90 0 1 0 90 300ZM330 300A90 90 0 1 0 510 300A90 90 0 1 0 330 300Z"
      : "M70 240Q70 212 100 212H262Q292 212 288 245L280 330Q272 388 210 388H140Q80 388 74 330ZM530 240Q530 212 500 212H338Q308 212 312 245L320 330Q328 388 390 388H460Q520 388 526 330Z";
    const frame = round ? METAL : c.main;
    let d = line(round ? "M90 290L40 270M510 290L560 270" : "M70 240L30 225M530 240L570 225", frame, 12);
    d += line(round ? "M270 292Q300 262 330 292" : "M288 250Q300 232 312 250", frame, 12);
    d += `<path d="${lenses}" fill="${c.dark}" stroke="${frame}" stroke-width="${round ? 10 : 20}"/>`;
    d += line(
      round ? "M130 270L170 240M370 270L410 240" : "M110 260L170 235M350 260L410 235",
      "#ffffff",
      8,
      ` opacity=".35"`,
    );
    return d;
  },
  scarf: (c) => {
    let d = `<path d="M180 150A120 55 0 1 0 420 150A120 55 0 1 0 180 150ZM235 145A65 25 0 1 0 365 145A65 25 0 1 0 235 145Z" fill="${c.main}" fill-rule="evenodd"/>`;
    d += shape(c, "M300 190L372 170L392 440L322 452Z") + shape(c, "M240 180L310 195L298 470L222 460Z");
    d +=
      line("M226 410L302 420M228 385L303 395", c.accent, 8) +
      line("M318 402L390 392M316 378L388 368", c.accent, 8);
    let fringe = "";
    for (let x = 228; x <= 296; x += 11) fringe += `M${x} ${462 + (x - 228) / 7}v24`;
    for (let x = 326; x <= 390; x += 11) fringe += `M${x} ${451 - (x - 326) / 6}v24`;
    d += line(fringe, c.dark, 4);
    return d;
  },
  socks: (c) => {
    const sock =
      "M200 100H290V330Q290 365 320 380L392 415Q430 435 415 475Q400 505 360 492L245 448Q200 430 200 385Z";
    const one = (dx: number, dy: number, fill: string): string =>
      `<g transform="translate(${dx} ${dy})"><path d="${sock}" fill="${fill}"/>` +
      `<path d="M200 100H290V145H200Z" fill="${c.light}"/>` +
      line("M215 105V140M230 105V140M245 105V140M260 105V140M275 105V140", c.dark, 2) +
      line("M200 185H290M200 210H290", c.accent, 10) +
      `<path d="M392 415Q430 435 415 475Q400 505 360 492Q392 462 392 415Z" fill="${c.accent}"/></g>`;
    return one(70, -30, c.dark) + one(-40, 20, c.main);
  },
};

const FLOOR: Partial<Record<ItemKind, number>> = {
  sneaker: 458,
  boot: 462,
  sandal: 432,
  loafer: 446,
  belt: 372,
  sunglasses: 420,
  wallet: 448,
  cap: 446,
  beanie: 455,
  scarf: 498,
  tank: 492,
};

function floorY(kind: ItemKind, t: string): number {
  if (kind === "tank" && /\bbra\b/.test(t)) return 372;
  if (kind === "jacket" && /coat|parka|trench/.test(t)) return 552;
  if (kind === "shorts") return 418;
  if (kind === "skirt") return 466;
  return FLOOR[kind] ?? 512;
}

/** 600x600 product illustration chosen from keywords in the title. */
export function productSvg(p: { title: string; category: string; brand: string; slug: string }): string {
  const kind = productKind(p.title, p.category);
  const t = p.title.toLowerCase();
  const c = palette(p.slug, p.title, kind);
  const brand = p.brand in BRAND_LABELS ? BRAND_LABELS[p.brand as Brand] : p.brand;
  const art = RENDER[kind](c, t);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="600" viewBox="0 0 600 600" role="img">` +
    `<title>${escapeXml(p.title)}</title>${patternDefs(c)}` +
    `<rect width="600" height="600" fill="${c.bg}"/><circle cx="300" cy="290" r="235" fill="${c.bg2}"/>` +
    `<ellipse cx="300" cy="${floorY(kind, t)}" rx="190" ry="14" fill="${c.dark}" opacity=".14"/>` +
    `<g stroke="${c.dark}" stroke-width="6" stroke-linejoin="round" stroke-linecap="round">${art}</g>` +
    `<text x="300" y="572" text-anchor="middle" font-family="Helvetica,Arial,sans-serif" font-size="24" ` +
    `font-weight="700" letter-spacing="5" fill="${c.dark}">${escapeXml(brand.toUpperCase())}</text></svg>`
  );
}

interface BannerStyle {
  from: string;
  to: string;
  badge?: string;
  items: ReadonlyArray<
    readonly [kind: ItemKind, title: string, hue: number, x: number, y: number, scale: number]
  >;
}

const BANNER_STYLES: readonly BannerStyle[] = [
  {
    from: "#1f3b5c",
    to: "#3f7ea6",
    items: [
      ["jacket", "bomber jacket", 28, 850, 110, 0.7],
      ["tshirt", "tee", 48, 1090, 190, 0.55],
      ["dress", "midi dress", 340, 1255, 130, 0.65],
    ],
  },
  {
    from: "#b3361e",
    to: "#f08a3c",
    badge: "-40%",
    items: [["sneaker", "running sneaker", 200, 930, 20, 1]],
  },
  {
    from: "#2e2a4f",
    to: "#7c5a9e",
    items: [
      ["bag", "crossbody bag", 28, 900, 60, 0.68],
      ["watch", "analogue watch", 200, 1200, 30, 0.55],
      ["sunglasses", "round sunglasses", 45, 1020, 350, 0.45],
      ["belt", "leather belt", 22, 1280, 330, 0.5],
    ],
  },
];

/**
 * 1600x600 promotional banner artwork, without text (the page draws the text
 * as HTML over the left part); i is 1-based (1..3), other values wrap.
 */
export function bannerSvg(i: number, text: { heading: string; sub: string }): string {
  const style =
    BANNER_STYLES[(((i - 1) % BANNER_STYLES.length) + BANNER_STYLES.length) % BANNER_STYLES.length] ??
    BANNER_STYLES[0];
  if (style === undefined) throw new Error("no banner styles");
  const badge =
    style.badge === undefined
      ? ""
      : `<circle cx="1460" cy="150" r="85" fill="#ffffff"/><text x="1460" y="168" text-anchor="middle" ` +
        `font-family="Helvetica,Arial,sans-serif" font-size="50" font-weight="800" fill="${style.from}">${escapeXml(style.badge)}</text>`;
  let art = "";
  for (const [kind, title, hue, x, y, scale] of style.items) {
    const c: Palette = {
      main: hsl(hue, 60, 55),
      dark: hsl(hue, 55, 25),
      light: hsl(hue, 55, 78),
      accent: hsl(hue + 160, 70, 62),
      bg: "none",
      bg2: "none",
      stitch: GOLD,
      pattern: null,
    };
    art +=
      `<g transform="translate(${x} ${y}) scale(${scale})" stroke="${c.dark}" stroke-width="6" ` +
      `stroke-linejoin="round" stroke-linecap="round">${RENDER[kind](c, title)}</g>`;
  }
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="600" viewBox="0 0 1600 600" role="img">` +
    `<title>${escapeXml(text.heading)}</title>` +
    `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">` +
    `<stop offset="0" stop-color="${style.from}"/><stop offset="1" stop-color="${style.to}"/></linearGradient></defs>` +
    `<rect width="1600" height="600" fill="url(#g)"/>` +
    `<circle cx="1250" cy="300" r="330" fill="#ffffff" opacity=".1"/><circle cx="1500" cy="40" r="160" fill="#ffffff" opacity=".08"/>` +
    `<circle cx="60" cy="560" r="140" fill="#ffffff" opacity=".06"/>${art}${badge}` +
    // The title, subtitle and "Shop now" are HTML over the artwork: never drawn into it.
    `</svg>`
  );
}
