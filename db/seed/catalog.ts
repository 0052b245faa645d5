// Demo catalogue for the shop: hand-written products, banner features and a
// deterministic generator for large benchmark catalogues. Everything here is
// pure data / pure functions: no randomness at module load.

import { BRANDS, CATEGORIES, type Brand, type Category } from "../../app/lib/shared/catalog-options";
import {
  COLOURS as VARIANT_COLOURS,
  compareVariants,
  ONE_SIZE,
  SIZE_SCALES,
} from "../../app/lib/shared/variants";

export {
  BRAND_LABELS,
  BRANDS,
  CATEGORIES,
  type Brand,
  type Category,
} from "../../app/lib/shared/catalog-options";

export interface DemoProduct {
  slug: string;
  title: string;
  description: string;
  category: Category;
  brand: Brand;
  price: string;
  salePrice: string | null;
  totalStock: number;
  image: string;
  material: string | null;
  /** Its sizes and colours, in display order; their stock adds up to `totalStock`. */
  variants: DemoVariant[];
}

interface DemoVariant {
  sku: string;
  size: string | null;
  colour: string | null;
  /** Display order (compareVariants). */
  position: number;
  totalStock: number;
}

interface DemoFeature {
  slug: string;
  image: string;
  alt: string;
  /** The banner's HTML text over the artwork, and where "Shop now" goes. */
  title: string;
  subtitle: string;
  link: string;
}

/** Item kinds that the artwork knows how to draw. */
export type ItemKind =
  | "tshirt"
  | "shirt"
  | "tank"
  | "sweater"
  | "hoodie"
  | "jacket"
  | "vest"
  | "trousers"
  | "shorts"
  | "dress"
  | "skirt"
  | "sneaker"
  | "boot"
  | "sandal"
  | "loafer"
  | "cap"
  | "beanie"
  | "bag"
  | "backpack"
  | "wallet"
  | "belt"
  | "watch"
  | "sunglasses"
  | "scarf"
  | "socks";

const KIND_RULES: ReadonlyArray<readonly [RegExp, ItemKind]> = [
  [/sunglass/, "sunglasses"],
  [/\bwatch/, "watch"],
  [/\bbelt/, "belt"],
  [/scarf|shawl|snood/, "scarf"],
  [/\bsock/, "socks"],
  [/backpack|rucksack/, "backpack"],
  [/wallet|card holder|purse/, "wallet"],
  [/\bbag\b|tote|duffel|crossbody|clutch/, "bag"],
  [/beanie|bobble hat/, "beanie"],
  [/\bcap\b|\bhat\b|visor/, "cap"],
  [/\bboot/, "boot"],
  [/sandal|\bslides?\b|flip-flop|espadrille/, "sandal"],
  [/loafer|moccasin|ballet|brogue|mule/, "loafer"],
  [/sneaker|trainer|\bshoes?\b/, "sneaker"],
  [/dress/, "dress"],
  [/skirt/, "skirt"],
  [/\bshorts\b/, "shorts"],
  [/jean|trouser|pants|jogger|legging|chino|overall|cargo/, "trousers"],
  [/hoodie|hooded/, "hoodie"],
  [/sweatshirt|sweater|jumper|cardigan|pullover|knit|fleece(?! jacket)/, "sweater"],
  [/\bvest\b|gilet/, "vest"],
  [/jacket|blazer|coat|parka|anorak|tracksuit|windbreaker|bomber/, "jacket"],
  [/\btank\b|\bbra\b|cami|sleeveless/, "tank"],
  [/t-shirt|\btee\b|polo|\btop\b|pyjama/, "tshirt"],
  [/shirt|blouse/, "shirt"],
];

const CATEGORY_FALLBACK_KIND: Record<string, ItemKind> = {
  men: "tshirt",
  women: "dress",
  kids: "tshirt",
  accessories: "bag",
  footwear: "sneaker",
};

/** Classify a product into a drawable item kind using keywords in its title. */
export function productKind(title: string, category: string): ItemKind {
  const t = title.toLowerCase();
  for (const [re, kind] of KIND_RULES) {
    if (re.test(t)) return kind;
  }
  return CATEGORY_FALLBACK_KIND[category] ?? "tshirt";
}

function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/&/g, " and ")
    .replace(/['\u2019]/g, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

type Row = readonly [
  category: Category,
  brand: Brand,
  title: string,
  description: string,
  price: string,
  salePrice: string | null,
  totalStock: number,
];

const ROWS: readonly Row[] = [
  // men
  [
    "men",
    "nike",
    "Dri-FIT Training Tee",
    "A lightweight training tee in sweat-wicking fabric that keeps you dry through every set. Relaxed fit with flat seams to prevent chafing.",
    "29.99",
    null,
    84,
  ],
  [
    "men",
    "nike",
    "Tech Fleece Hoodie",
    "A warm yet light full-zip hoodie in smooth double-sided fleece. Tapered fit with zipped side pockets for your phone and keys.",
    "119.99",
    "89.99",
    42,
  ],
  [
    "men",
    "adidas",
    "Tiro Track Pants",
    "Slim-fit track pants with zip ankles and the signature side stripes. Soft recycled polyester for training or travel.",
    "54.99",
    null,
    67,
  ],
  [
    "men",
    "adidas",
    "Essentials Pique Polo Shirt",
    "A breathable cotton pique polo with a ribbed collar and two-button placket. Smart enough for the office, easy enough for the weekend.",
    "39.99",
    "29.99",
    58,
  ],
  [
    "men",
    "puma",
    "Classic Logo Sweatshirt",
    "A crew-neck sweatshirt in brushed cotton-blend fleece with a small chest logo. Ribbed cuffs and hem hold the shape.",
    "59.99",
    null,
    73,
  ],
  [
    "men",
    "puma",
    "Performance Running Shorts",
    "Lightweight running shorts with a built-in brief and a secure zip pocket. Quick-drying fabric for long runs in warm weather.",
    "34.99",
    null,
    96,
  ],
  [
    "men",
    "levi",
    "Classic Denim Jacket",
    "The timeless trucker jacket in rigid medium-wash denim. Button front, chest flap pockets and a fit that softens with every wear.",
    "99.99",
    null,
    38,
  ],
  [
    "men",
    "levi",
    "Slim Fit Stretch Jeans",
    "Slim-fit jeans cut from stretch denim for all-day comfort. A clean dark wash that dresses up or down.",
    "79.99",
    "59.99",
    112,
  ],
  [
    "men",
    "levi",
    "Sherpa Trucker Jacket",
    "A denim trucker jacket lined with cosy sherpa fleece for colder days. Corduroy collar and hand-warmer pockets.",
    "139.99",
    null,
    7,
  ],
  [
    "men",
    "zara",
    "Textured Wool Blazer",
    "A single-breasted blazer in a textured wool blend with notch lapels. Half-lined for a lighter, more relaxed drape.",
    "149.99",
    null,
    0,
  ],
  [
    "men",
    "zara",
    "Linen Blend Shirt",
    "A relaxed summer shirt in breathable linen and cotton. Button-down collar and a slightly boxy cut.",
    "45.99",
    null,
    61,
  ],
  [
    "men",
    "h&m",
    "Regular Fit Oxford Shirt",
    "A wardrobe staple in soft cotton Oxford weave with a button-down collar. Regular fit with a curved hem.",
    "24.99",
    null,
    104,
  ],
  [
    "men",
    "h&m",
    "Relaxed Cargo Trousers",
    "Relaxed trousers in cotton twill with roomy cargo pockets on the legs. Adjustable drawstring hems.",
    "34.99",
    "24.99",
    77,
  ],
  [
    "men",
    "zara",
    "Quilted Puffer Vest",
    "A lightweight padded vest with a stand-up collar and horizontal quilting. Layers easily over a sweater or shirt.",
    "59.99",
    null,
    33,
  ],

  // women
  [
    "women",
    "nike",
    "Seamless Sports Bra",
    "A medium-support sports bra with a smooth seamless knit and removable pads. Made for yoga, gym sessions and everyday wear.",
    "34.99",
    null,
    88,
  ],
  [
    "women",
    "nike",
    "High-Waisted Training Leggings",
    "Buttery-soft leggings with a high, supportive waistband and a hidden key pocket. Squat-proof fabric that moves with you.",
    "59.99",
    "44.99",
    91,
  ],
  [
    "women",
    "adidas",
    "Adicolor Track Jacket",
    "A retro-inspired track jacket with contrast stripes down the sleeves. Full zip and a stand-up collar.",
    "79.99",
    null,
    46,
  ],
  [
    "women",
    "adidas",
    "Pleated Tennis Skirt",
    "A sporty pleated skirt with built-in shorts for freedom of movement. Light, quick-drying fabric for the court or the street.",
    "44.99",
    null,
    5,
  ],
  [
    "women",
    "puma",
    "Cropped Logo Hoodie",
    "A cropped hoodie in soft cotton-blend fleece with a drawcord hood. Pairs perfectly with high-waisted joggers.",
    "54.99",
    null,
    63,
  ],
  [
    "women",
    "puma",
    "Ribbed Tank Top",
    "A fitted tank top in stretchy ribbed jersey. Easy to layer and just as good on its own.",
    "19.99",
    null,
    118,
  ],
  [
    "women",
    "levi",
    "Straight Ankle Jeans",
    "High-rise straight jeans that hit just at the ankle. Vintage-inspired light wash in non-stretch cotton denim.",
    "97.99",
    null,
    54,
  ],
  [
    "women",
    "levi",
    "Western Denim Shirt",
    "A denim shirt with pointed yokes and pearl snap buttons. Wear it buttoned up or open over a tee.",
    "69.99",
    "49.99",
    39,
  ],
  [
    "women",
    "zara",
    "Satin Midi Slip Dress",
    "A fluid midi dress in satin-finish fabric with thin adjustable straps. Cut on the bias for a flattering drape.",
    "69.99",
    null,
    27,
  ],
  [
    "women",
    "zara",
    "Oversized Wool Coat",
    "A long oversized coat in a soft wool blend with dropped shoulders. Concealed button fastening and deep side pockets.",
    "199.99",
    "149.99",
    19,
  ],
  [
    "women",
    "zara",
    "Floral Wrap Dress",
    "A floaty wrap dress with a delicate floral print and tie waist. Flutter sleeves and a midi-length hem.",
    "59.99",
    null,
    44,
  ],
  [
    "women",
    "h&m",
    "Ribbed Knit Cardigan",
    "A cosy cardigan in a soft rib knit with mother-of-pearl style buttons. Slightly cropped with long sleeves.",
    "29.99",
    null,
    3,
  ],
  [
    "women",
    "h&m",
    "Wide-Leg Tailored Trousers",
    "High-waisted trousers with pressed creases and wide, flowing legs. Smart for work with a comfortable elastic back.",
    "34.99",
    null,
    72,
  ],
  [
    "women",
    "h&m",
    "A-Line Denim Skirt",
    "A classic A-line skirt in washed cotton denim with front patch pockets. Zip fly and a knee-length hem.",
    "24.99",
    "17.99",
    66,
  ],
  [
    "women",
    "nike",
    "Oversized Graphic T-Shirt",
    "A heavyweight cotton tee with a dropped shoulder and a bold chest graphic. Relaxed, roomy and made to be lived in.",
    "32.99",
    null,
    79,
  ],

  // kids
  [
    "kids",
    "nike",
    "Kids' Club Fleece Joggers",
    "Comfy joggers in soft brushed fleece with an elastic waist and cuffs. Ready for the playground and beyond.",
    "39.99",
    null,
    87,
  ],
  [
    "kids",
    "nike",
    "Kids' Graphic Logo Tee",
    "A soft cotton T-shirt with a playful logo print. Tag-free neck for all-day comfort.",
    "19.99",
    "14.99",
    110,
  ],
  [
    "kids",
    "adidas",
    "Kids' Three-Stripe Tracksuit",
    "A two-piece tracksuit with a full-zip jacket and matching pants. Made from recycled polyester tricot.",
    "64.99",
    null,
    52,
  ],
  [
    "kids",
    "adidas",
    "Kids' Padded Winter Jacket",
    "A warm padded jacket with a fixed hood and reflective details. Water-repellent shell for chilly school runs.",
    "89.99",
    "69.99",
    2,
  ],
  [
    "kids",
    "puma",
    "Kids' Essentials Hoodie",
    "A pullover hoodie in soft cotton-blend fleece with a kangaroo pocket. Durable enough for everyday adventures.",
    "34.99",
    null,
    68,
  ],
  [
    "kids",
    "puma",
    "Kids' Training Shorts",
    "Light, breathable sports shorts with an elastic waistband. Perfect for PE lessons and summer play.",
    "17.99",
    null,
    95,
  ],
  [
    "kids",
    "levi",
    "Kids' Skinny Fit Jeans",
    "Skinny jeans in stretch denim with an adjustable inner waistband that grows with them. Classic five-pocket styling.",
    "39.99",
    null,
    74,
  ],
  [
    "kids",
    "levi",
    "Kids' Denim Overalls",
    "Hard-wearing denim overalls with adjustable straps and a bib pocket. A timeless look for little explorers.",
    "44.99",
    null,
    31,
  ],
  [
    "kids",
    "zara",
    "Kids' Striped Cotton Dress",
    "A sleeveless cotton dress with colourful stripes and a twirly skirt. Easy to pull on with a button back.",
    "25.99",
    null,
    4,
  ],
  [
    "kids",
    "zara",
    "Kids' Quilted Puffer Vest",
    "A lightweight quilted vest with snap fastening and side pockets. Keeps them warm without bulky sleeves.",
    "35.99",
    "25.99",
    47,
  ],
  [
    "kids",
    "h&m",
    "Kids' Printed Pyjama Set",
    "A two-piece pyjama set in soft organic cotton jersey with an all-over print. Long sleeves and cuffed bottoms.",
    "14.99",
    null,
    120,
  ],
  [
    "kids",
    "h&m",
    "Kids' Cotton Socks 5-Pack",
    "Five pairs of soft cotton-blend socks in fun colours. Reinforced heels and toes for extra durability.",
    "9.99",
    null,
    0,
  ],
  [
    "kids",
    "h&m",
    "Kids' Knitted Bobble Beanie",
    "A warm knitted beanie with a fold-up cuff and a fluffy bobble on top. Lined for extra cosiness.",
    "9.99",
    null,
    57,
  ],
  [
    "kids",
    "puma",
    "Kids' Light-Up Sneakers",
    "Fun sneakers with LED lights in the sole and easy hook-and-loop straps. Cushioned insole for little feet.",
    "49.99",
    null,
    36,
  ],

  // accessories
  [
    "accessories",
    "nike",
    "Heritage Logo Cap",
    "A six-panel cap in washed cotton twill with an adjustable strap. Curved brim and embroidered eyelets.",
    "24.99",
    null,
    101,
  ],
  [
    "accessories",
    "nike",
    "Brasilia Training Backpack",
    "A roomy training backpack with a padded laptop sleeve and a ventilated shoe compartment. Padded straps for comfortable carrying.",
    "44.99",
    null,
    48,
  ],
  [
    "accessories",
    "adidas",
    "Cushioned Crew Socks 3-Pack",
    "Three pairs of crew socks with arch support and a cushioned sole. Moisture-wicking yarn for training days.",
    "16.99",
    null,
    115,
  ],
  [
    "accessories",
    "adidas",
    "Linear Duffel Bag",
    "A durable duffel bag with a large main compartment and an adjustable shoulder strap. Ideal for the gym or a weekend away.",
    "39.99",
    "29.99",
    53,
  ],
  [
    "accessories",
    "puma",
    "Sport Digital Watch",
    "A lightweight digital watch with a stopwatch, alarm and backlight. Water resistant to 50 metres.",
    "59.99",
    null,
    8,
  ],
  [
    "accessories",
    "puma",
    "Ribbed Cuff Beanie",
    "A classic ribbed beanie with a deep turn-up cuff. Soft acrylic knit that keeps its shape.",
    "19.99",
    null,
    82,
  ],
  [
    "accessories",
    "levi",
    "Reversible Leather Belt",
    "A genuine leather belt that flips from black to brown. Polished metal buckle with a rotating clasp.",
    "39.99",
    null,
    69,
  ],
  [
    "accessories",
    "levi",
    "Classic Canvas Tote Bag",
    "A sturdy cotton canvas tote with long handles and an inside pocket. Big enough for groceries, books or a laptop.",
    "29.99",
    null,
    62,
  ],
  [
    "accessories",
    "levi",
    "Leather Card Wallet",
    "A slim bifold wallet in smooth leather with six card slots and a note compartment. Fits easily in a front pocket.",
    "34.99",
    "24.99",
    45,
  ],
  [
    "accessories",
    "zara",
    "Oversized Acetate Sunglasses",
    "Bold oversized sunglasses with a glossy acetate frame. Tinted lenses with full UV400 protection.",
    "29.99",
    null,
    37,
  ],
  [
    "accessories",
    "zara",
    "Leather Crossbody Bag",
    "A compact crossbody bag in grained leather with a magnetic flap. Adjustable strap and a gold-tone buckle.",
    "49.99",
    null,
    29,
  ],
  [
    "accessories",
    "zara",
    "Cashmere Blend Scarf",
    "A long, soft scarf in a cashmere and wool blend with fringed ends. Adds warmth and polish to any coat.",
    "39.99",
    "27.99",
    24,
  ],
  [
    "accessories",
    "h&m",
    "Chunky Knit Scarf",
    "An extra-long scarf in a chunky cable knit. Wrap it twice for maximum warmth on winter days.",
    "17.99",
    null,
    0,
  ],
  [
    "accessories",
    "h&m",
    "Minimalist Analogue Watch",
    "A slim analogue watch with a clean dial and a leather strap. Understated style for every day.",
    "34.99",
    null,
    41,
  ],
  [
    "accessories",
    "h&m",
    "Round Metal Sunglasses",
    "Retro round sunglasses with a thin metal frame and tinted lenses. UV protection in a lightweight design.",
    "12.99",
    null,
    93,
  ],

  // footwear
  [
    "footwear",
    "nike",
    "Air Cushion Running Sneakers",
    "Responsive running sneakers with a visible air cushion in the heel. Breathable mesh upper for mile after mile.",
    "129.99",
    null,
    58,
  ],
  [
    "footwear",
    "nike",
    "Court Vision Low Sneakers",
    "Basketball-inspired low-top sneakers in smooth leather. A clean, classic look for everyday wear.",
    "74.99",
    "59.99",
    6,
  ],
  [
    "footwear",
    "nike",
    "Victori Slide Sandals",
    "Soft foam slides with a padded strap. Slip them on after training or at the pool.",
    "29.99",
    null,
    99,
  ],
  [
    "footwear",
    "adidas",
    "Ultra Light Running Shoes",
    "Lightweight running shoes with energy-returning cushioning and a sock-like knit upper. Built for everyday runs.",
    "189.99",
    "149.99",
    34,
  ],
  [
    "footwear",
    "adidas",
    "Samba Leather Trainers",
    "Terrace-style trainers with a soft leather upper, suede overlays and a gum rubber sole.",
    "99.99",
    null,
    71,
  ],
  [
    "footwear",
    "adidas",
    "Terrex Hiking Boots",
    "Waterproof hiking boots with a grippy rubber outsole and supportive ankle collar. Ready for muddy trails.",
    "149.99",
    null,
    26,
  ],
  [
    "footwear",
    "puma",
    "Suede Classic Sneakers",
    "The iconic low-top sneaker in soft suede with a rubber cupsole. A street-style favourite since the sixties.",
    "69.99",
    null,
    83,
  ],
  [
    "footwear",
    "puma",
    "Cushioned Flip-Flops",
    "Comfortable flip-flops with a contoured footbed and soft toe post. Light enough to pack for any trip.",
    "19.99",
    null,
    107,
  ],
  [
    "footwear",
    "levi",
    "Chelsea Leather Boots",
    "Classic Chelsea boots in burnished leather with elastic side panels and pull tabs. Durable stacked heel.",
    "119.99",
    null,
    32,
  ],
  [
    "footwear",
    "levi",
    "Canvas Low-Top Sneakers",
    "Simple lace-up sneakers in sturdy cotton canvas with a vulcanised rubber sole. Easy to pair with jeans.",
    "49.99",
    null,
    64,
  ],
  [
    "footwear",
    "zara",
    "Block Heel Ankle Boots",
    "Sleek ankle boots with a stable block heel and a side zip. Smooth faux leather upper.",
    "89.99",
    "69.99",
    22,
  ],
  [
    "footwear",
    "zara",
    "Leather Strappy Sandals",
    "Minimal sandals with slim leather straps and an adjustable ankle buckle. A cushioned footbed for summer days.",
    "45.99",
    null,
    50,
  ],
  [
    "footwear",
    "h&m",
    "Chunky Platform Sneakers",
    "Chunky sneakers with a thick platform sole and padded collar. An easy way to add height and attitude.",
    "39.99",
    null,
    76,
  ],
  [
    "footwear",
    "h&m",
    "Faux Leather Loafers",
    "Polished loafers in faux leather with a decorative strap across the vamp. Flexible sole for all-day comfort.",
    "29.99",
    "22.99",
    55,
  ],
];

/** What some of the demo products are made of, by title (the others say nothing). */
const MATERIALS: Record<string, string> = {
  "Dri-FIT Training Tee": "100% recycled polyester",
  "Tech Fleece Hoodie": "66% cotton, 34% polyester",
  "Essentials Pique Polo Shirt": "100% cotton piqué",
  "Classic Denim Jacket": "100% cotton denim",
  "Slim Fit Stretch Jeans": "99% cotton, 1% elastane",
  "Textured Wool Blazer": "70% wool, 30% polyester",
  "Linen Blend Shirt": "55% linen, 45% cotton",
  "Regular Fit Oxford Shirt": "100% cotton Oxford",
  "Seamless Sports Bra": "88% nylon, 12% elastane",
  "Satin Midi Slip Dress": "100% polyester satin",
  "Oversized Wool Coat": "60% wool, 40% polyamide",
  "Ribbed Knit Cardigan": "50% cotton, 50% acrylic",
  "Kids' Striped Cotton Dress": "100% organic cotton",
  "Kids' Printed Pyjama Set": "100% organic cotton",
  "Reversible Leather Belt": "Full-grain leather",
  "Classic Canvas Tote Bag": "Heavy cotton canvas",
  "Leather Card Wallet": "Full-grain leather",
  "Cashmere Blend Scarf": "70% wool, 30% cashmere",
  "Samba Leather Trainers": "Leather upper, rubber sole",
  "Chelsea Leather Boots": "Leather upper, rubber sole",
  "Suede Classic Sneakers": "Suede upper, rubber sole",
  "Canvas Low-Top Sneakers": "Cotton canvas upper, rubber sole",
};

// ---------------------------------------------------------------------------
// Sizes and colours of the demo catalogue.
// ---------------------------------------------------------------------------

const scaleValues = (category: Category) => SIZE_SCALES[category].map((size) => size.value);
const between = (values: readonly string[], first: string, last: string) =>
  values.slice(values.indexOf(first), values.indexOf(last) + 1);

/** Size runs a shop stocks: letters for adults, every other age for kids, a men's and a women's shoe run. */
const SIZE_RUNS = {
  letters: scaleValues("men"),
  kids: ["3-4Y", "5-6Y", "7-8Y", "9-10Y", "11-12Y"],
  shoes: between(scaleValues("footwear"), "EU 39", "EU 45"),
  womensShoes: between(scaleValues("footwear"), "EU 36", "EU 41"),
  oneSize: [ONE_SIZE],
} satisfies Record<string, readonly string[]>;

const RUN_BY_CATEGORY: Record<Category, readonly string[]> = {
  men: SIZE_RUNS.letters,
  women: SIZE_RUNS.letters,
  kids: SIZE_RUNS.kids,
  footwear: SIZE_RUNS.shoes,
  accessories: SIZE_RUNS.oneSize,
};

/** Footwear cut for women: the smaller run. */
const WOMENS_SHOES = new Set([
  "Block Heel Ankle Boots",
  "Leather Strappy Sandals",
  "Chunky Platform Sneakers",
]);

/** The demo products sold in two or three colours (values of lib/shared/variants' COLOURS). */
const COLOURWAYS: Record<string, readonly string[]> = {
  "Dri-FIT Training Tee": ["black", "white", "navy"],
  "Essentials Pique Polo Shirt": ["white", "navy", "green"],
  "Classic Logo Sweatshirt": ["grey", "navy"],
  "Ribbed Tank Top": ["black", "white", "pink"],
  "Oversized Graphic T-Shirt": ["white", "black"],
  "Kids' Graphic Logo Tee": ["blue", "red"],
  "Suede Classic Sneakers": ["navy", "red"],
  "Canvas Low-Top Sneakers": ["black", "white"],
  "Heritage Logo Cap": ["black", "navy", "beige"],
  "Ribbed Cuff Beanie": ["black", "grey", "olive"],
  "Reversible Leather Belt": ["black", "brown"],
  "Classic Canvas Tote Bag": ["beige", "black"],
};

/** "EU 42" → "EU42", "One size" → "OS", "M" → "M": the size's part of a SKU. */
function skuPart(value: string): string {
  return value === ONE_SIZE ? "OS" : value.replace(/\s+/g, "").toUpperCase();
}

/** A readable SKU: the stem, the size and the colour ("DRI-FIT-TRAINING-TEE-M-BLACK"). */
function variantSku(stem: string, size: string | null, colour: string | null): string {
  return [stem, size && skuPart(size), colour && colour.toUpperCase()].filter(Boolean).join("-");
}

/**
 * Splits `total` over the variants by weight (largest remainder, so the parts
 * add up exactly), leaving the sold-out ones at 0. Middle sizes sell most and
 * so are stocked most; the first colour is the main one.
 */
function distributeStock(
  options: readonly { size: string | null; colour: string | null }[],
  total: number,
  soldOut: (index: number) => boolean,
): number[] {
  const sizes = [...new Set(options.map((option) => option.size))];
  const colours = [...new Set(options.map((option) => option.colour))];
  const weights = options.map((option, index) => {
    if (soldOut(index)) return 0;
    const at = sizes.indexOf(option.size);
    const sizeWeight = 1 + Math.min(at, sizes.length - 1 - at);
    return sizeWeight * (colours.indexOf(option.colour) === 0 ? 2 : 1);
  });
  const sum = weights.reduce((a, b) => a + b, 0);
  if (sum === 0) return options.map(() => 0);
  const exact = weights.map((weight) => (total * weight) / sum);
  const parts = exact.map(Math.floor);
  let left = total - parts.reduce((a, b) => a + b, 0);
  const byRemainder = exact
    .map((value, index) => ({ index, remainder: value - Math.floor(value) }))
    .filter(({ index }) => weights[index]! > 0)
    .sort((a, b) => b.remainder - a.remainder || a.index - b.index);
  for (const { index } of byRemainder) {
    if (left === 0) break;
    parts[index]! += 1;
    left -= 1;
  }
  return parts;
}

/** Every size of the run in every colour (or no colour), in display order. */
function optionsOf(sizes: readonly string[], colours: readonly string[]) {
  const colourList: (string | null)[] = colours.length ? [...colours] : [null];
  return sizes.flatMap((size) => colourList.map((colour) => ({ size, colour }))).sort(compareVariants);
}

/**
 * The demo product's variants: its category's size run in its colours, the
 * row's stock spread over them. Every third product has its largest size sold
 * out and every fourth its smallest (a catalogue where "M is gone" happens),
 * small stocks leave the edge sizes low or empty.
 */
function demoVariants(index: number, slug: string, title: string, category: Category, total: number) {
  const sizes = WOMENS_SHOES.has(title) ? SIZE_RUNS.womensShoes : RUN_BY_CATEGORY[category];
  const options = optionsOf(sizes, COLOURWAYS[title] ?? []);
  const first = sizes[0];
  const last = sizes[sizes.length - 1];
  const stock = distributeStock(options, total, (at) => {
    if (sizes.length < 3) return false;
    const size = options[at]!.size;
    return (index % 3 === 2 && size === last) || (index % 4 === 1 && size === first);
  });
  const stem = slug.toUpperCase();
  return options.map((option, at): DemoVariant => ({
    sku: variantSku(stem, option.size, option.colour),
    size: option.size,
    colour: option.colour,
    position: at,
    totalStock: stock[at]!,
  }));
}

export const DEMO_PRODUCTS: DemoProduct[] = ROWS.map(
  ([category, brand, title, description, price, salePrice, totalStock], index) => {
    const slug = slugify(title);
    return {
      slug,
      title,
      description,
      category,
      brand,
      price,
      salePrice,
      totalStock,
      image: `/images/products/${slug}.svg`,
      material: MATERIALS[title] ?? null,
      variants: demoVariants(index, slug, title, category, totalStock),
    };
  },
);

export const DEMO_FEATURES: DemoFeature[] = [
  {
    slug: "banner-1",
    image: "/images/banners/banner-1.svg",
    alt: "New Season Arrivals: fresh styles for men, women and kids",
    title: "New Season Arrivals",
    subtitle: "Fresh styles for men, women and kids",
    link: "/shop/listing?category=men,women,kids",
  },
  {
    slug: "banner-2",
    image: "/images/banners/banner-2.svg",
    alt: "Up to 40% off sneakers from top brands",
    title: "Up to 40% Off Sneakers",
    subtitle: "Top brands, limited time only",
    link: "/shop/listing?category=footwear",
  },
  {
    slug: "banner-3",
    image: "/images/banners/banner-3.svg",
    alt: "The Accessories Edit: bags, belts, watches and more",
    title: "The Accessories Edit",
    subtitle: "Bags, belts, watches and more",
    link: "/shop/listing?category=accessories",
  },
];

/** Texts of the banners, aligned with DEMO_FEATURES (the artwork names them in its SVG title only). */
export const BANNER_TEXTS: ReadonlyArray<{ heading: string; sub: string }> = DEMO_FEATURES.map((feature) => ({
  heading: feature.title,
  sub: feature.subtitle,
}));

// ---------------------------------------------------------------------------
// Deterministic generator for large catalogues (benchmarks).
// ---------------------------------------------------------------------------

/** mulberry32: small, fast, deterministic PRNG returning floats in [0, 1). */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface ItemTemplate {
  noun: string;
  kind: ItemKind;
  materials: readonly string[];
  min: number;
  max: number;
  feature: readonly string[];
}

const TOP_MATERIALS = [
  "Cotton",
  "Organic Cotton",
  "Linen",
  "Jersey",
  "Slub Cotton",
  "Pima Cotton",
  "Merino",
] as const;
const KNIT_MATERIALS = [
  "Cotton Fleece",
  "Merino Wool",
  "Lambswool",
  "Brushed Fleece",
  "Waffle Knit",
  "Cable Knit",
] as const;
const OUTER_MATERIALS = [
  "Wool Blend",
  "Denim",
  "Nylon",
  "Quilted",
  "Suede",
  "Corduroy",
  "Waxed Cotton",
  "Recycled Polyester",
] as const;
const BOTTOM_MATERIALS = ["Denim", "Stretch Cotton", "Twill", "Corduroy", "Linen", "Fleece"] as const;
const DRESS_MATERIALS = ["Satin", "Linen", "Cotton", "Crepe", "Jersey", "Chiffon", "Denim"] as const;
const SHOE_MATERIALS = ["Leather", "Suede", "Canvas", "Mesh", "Knit"] as const;
const BAG_MATERIALS = ["Leather", "Canvas", "Nylon", "Vegan Leather", "Recycled Nylon"] as const;

const TOP_FEATURES = [
  "a ribbed crew neck",
  "a relaxed drop shoulder",
  "double-stitched seams",
  "a soft brushed finish",
  "a subtle chest embroidery",
] as const;
const OUTER_FEATURES = [
  "a two-way zip",
  "deep hand-warmer pockets",
  "a detachable hood",
  "a warm lined interior",
  "water-repellent finish",
] as const;
const BOTTOM_FEATURES = [
  "a comfortable elastic back",
  "classic five-pocket styling",
  "tapered legs",
  "a mid-rise waist",
  "a zip fly and button closure",
] as const;
const DRESS_FEATURES = [
  "a tie waist",
  "flutter sleeves",
  "a flattering V-neck",
  "an elegant midi length",
  "hidden side pockets",
] as const;
const SHOE_FEATURES = [
  "a cushioned insole",
  "a grippy rubber outsole",
  "a padded ankle collar",
  "a lightweight foam midsole",
  "a pull tab at the heel",
] as const;
const SANDAL_FEATURES = [
  "a contoured footbed",
  "a cushioned insole",
  "a grippy rubber outsole",
  "soft padded straps",
  "an adjustable buckle",
] as const;
const ACC_FEATURES = [
  "an adjustable strap",
  "gold-tone hardware",
  "a durable finish",
  "a soft lining",
  "clean, minimal detailing",
] as const;

const tpl = (
  noun: string,
  kind: ItemKind,
  materials: readonly string[],
  min: number,
  max: number,
  feature: readonly string[],
): ItemTemplate => ({ noun, kind, materials, min, max, feature });

const ITEMS: Record<Category, readonly ItemTemplate[]> = {
  men: [
    tpl("T-Shirt", "tshirt", TOP_MATERIALS, 12, 45, TOP_FEATURES),
    tpl("Polo Shirt", "tshirt", TOP_MATERIALS, 20, 70, TOP_FEATURES),
    tpl("Oxford Shirt", "shirt", ["Cotton", "Linen", "Chambray", "Flannel"], 25, 90, TOP_FEATURES),
    tpl("Hoodie", "hoodie", KNIT_MATERIALS, 30, 120, TOP_FEATURES),
    tpl("Sweater", "sweater", KNIT_MATERIALS, 30, 140, TOP_FEATURES),
    tpl("Bomber Jacket", "jacket", OUTER_MATERIALS, 60, 220, OUTER_FEATURES),
    tpl("Overcoat", "jacket", ["Wool Blend", "Cashmere Blend", "Tweed"], 120, 249, OUTER_FEATURES),
    tpl("Puffer Vest", "vest", ["Quilted", "Nylon", "Recycled Polyester"], 40, 130, OUTER_FEATURES),
    tpl("Jeans", "trousers", ["Denim", "Stretch Denim", "Raw Denim"], 40, 140, BOTTOM_FEATURES),
    tpl("Chinos", "trousers", BOTTOM_MATERIALS, 30, 90, BOTTOM_FEATURES),
    tpl("Joggers", "trousers", ["Fleece", "Jersey", "Tech Knit"], 25, 80, BOTTOM_FEATURES),
    tpl("Shorts", "shorts", BOTTOM_MATERIALS, 15, 60, BOTTOM_FEATURES),
  ],
  women: [
    tpl("Blouse", "shirt", ["Satin", "Crepe", "Linen", "Cotton Poplin", "Chiffon"], 20, 90, TOP_FEATURES),
    tpl("T-Shirt", "tshirt", TOP_MATERIALS, 10, 40, TOP_FEATURES),
    tpl("Tank Top", "tank", ["Ribbed Jersey", "Cotton", "Linen", "Modal"], 10, 35, TOP_FEATURES),
    tpl("Midi Dress", "dress", DRESS_MATERIALS, 30, 160, DRESS_FEATURES),
    tpl("Wrap Dress", "dress", DRESS_MATERIALS, 30, 150, DRESS_FEATURES),
    tpl("Maxi Dress", "dress", DRESS_MATERIALS, 40, 190, DRESS_FEATURES),
    tpl("Pleated Skirt", "skirt", DRESS_MATERIALS, 20, 90, DRESS_FEATURES),
    tpl("Mini Skirt", "skirt", DRESS_MATERIALS, 15, 70, DRESS_FEATURES),
    tpl("Leggings", "trousers", ["Stretch Jersey", "Recycled Nylon", "Cotton"], 15, 70, BOTTOM_FEATURES),
    tpl("Wide-Leg Jeans", "trousers", ["Denim", "Stretch Denim"], 40, 130, BOTTOM_FEATURES),
    tpl("Cardigan", "sweater", KNIT_MATERIALS, 25, 120, TOP_FEATURES),
    tpl("Blazer", "jacket", ["Wool Blend", "Linen", "Crepe", "Tweed"], 60, 220, OUTER_FEATURES),
    tpl("Trench Coat", "jacket", ["Cotton Gabardine", "Wool Blend", "Waxed Cotton"], 90, 249, OUTER_FEATURES),
    tpl("Hoodie", "hoodie", KNIT_MATERIALS, 25, 100, TOP_FEATURES),
  ],
  kids: [
    tpl("T-Shirt", "tshirt", ["Cotton", "Organic Cotton", "Jersey"], 9, 25, TOP_FEATURES),
    tpl("Hoodie", "hoodie", ["Cotton Fleece", "Brushed Fleece"], 18, 55, TOP_FEATURES),
    tpl("Joggers", "trousers", ["Fleece", "Jersey", "Cotton"], 12, 45, BOTTOM_FEATURES),
    tpl("Jeans", "trousers", ["Denim", "Stretch Denim"], 18, 55, BOTTOM_FEATURES),
    tpl("Dress", "dress", ["Cotton", "Jersey", "Linen", "Denim"], 15, 60, DRESS_FEATURES),
    tpl("Shorts", "shorts", ["Cotton", "Denim", "Twill"], 10, 35, BOTTOM_FEATURES),
    tpl("Pyjama Set", "tshirt", ["Organic Cotton", "Jersey", "Flannel"], 10, 40, TOP_FEATURES),
    tpl("Rain Jacket", "jacket", ["Nylon", "Recycled Polyester"], 25, 90, OUTER_FEATURES),
    tpl("Puffer Jacket", "jacket", ["Quilted", "Nylon"], 35, 120, OUTER_FEATURES),
    tpl("Sneakers", "sneaker", ["Canvas", "Mesh", "Leather"], 20, 80, SHOE_FEATURES),
  ],
  accessories: [
    tpl("Baseball Cap", "cap", ["Cotton Twill", "Corduroy", "Nylon", "Washed Canvas"], 10, 45, ACC_FEATURES),
    tpl(
      "Beanie",
      "beanie",
      ["Merino Wool", "Ribbed Knit", "Recycled Acrylic", "Cashmere Blend"],
      10,
      60,
      ACC_FEATURES,
    ),
    tpl("Tote Bag", "bag", BAG_MATERIALS, 15, 120, ACC_FEATURES),
    tpl("Crossbody Bag", "bag", BAG_MATERIALS, 25, 180, ACC_FEATURES),
    tpl("Backpack", "backpack", BAG_MATERIALS, 30, 160, ACC_FEATURES),
    tpl("Belt", "belt", ["Leather", "Suede", "Woven", "Canvas"], 15, 90, ACC_FEATURES),
    tpl(
      "Watch",
      "watch",
      ["Stainless Steel", "Leather Strap", "Silicone", "Mesh Strap"],
      30,
      249,
      ACC_FEATURES,
    ),
    tpl(
      "Sunglasses",
      "sunglasses",
      ["Acetate", "Metal", "Tortoiseshell", "Polarised"],
      12,
      180,
      ACC_FEATURES,
    ),
    tpl("Scarf", "scarf", ["Wool", "Cashmere Blend", "Silk", "Cotton", "Chunky Knit"], 12, 140, ACC_FEATURES),
    tpl("Socks 3-Pack", "socks", ["Cotton", "Merino", "Bamboo"], 9, 30, ACC_FEATURES),
    tpl("Card Wallet", "wallet", ["Leather", "Vegan Leather", "Nylon"], 15, 80, ACC_FEATURES),
  ],
  footwear: [
    tpl("Sneakers", "sneaker", SHOE_MATERIALS, 35, 180, SHOE_FEATURES),
    tpl("Running Shoes", "sneaker", ["Mesh", "Knit", "Recycled Mesh"], 60, 220, SHOE_FEATURES),
    tpl("Trainers", "sneaker", SHOE_MATERIALS, 40, 160, SHOE_FEATURES),
    tpl("Chelsea Boots", "boot", ["Leather", "Suede", "Waxed Leather"], 70, 240, SHOE_FEATURES),
    tpl("Hiking Boots", "boot", ["Leather", "Nubuck", "Waterproof Mesh"], 80, 249, SHOE_FEATURES),
    tpl("Ankle Boots", "boot", ["Leather", "Suede", "Faux Leather"], 50, 200, SHOE_FEATURES),
    tpl("Sandals", "sandal", ["Leather", "Suede", "Woven", "Cork"], 20, 120, SANDAL_FEATURES),
    tpl("Slides", "sandal", ["Foam", "Rubber", "Leather"], 15, 60, SANDAL_FEATURES),
    tpl("Loafers", "loafer", ["Leather", "Suede", "Patent Leather"], 40, 200, SHOE_FEATURES),
  ],
};

const FIT_ADJECTIVES = [
  "Classic",
  "Relaxed",
  "Slim",
  "Oversized",
  "Cropped",
  "Regular Fit",
  "Tapered",
  "Boxy",
  "Essential",
  "Vintage",
  "Heritage",
  "Everyday",
  "Premium",
  "Lightweight",
  "Washed",
  "Textured",
  "Striped",
  "Retro",
] as const;
const ACC_ADJECTIVES = [
  "Classic",
  "Minimal",
  "Everyday",
  "Premium",
  "Heritage",
  "Vintage",
  "Sport",
  "Travel",
  "Compact",
  "Oversized",
  "Structured",
  "Retro",
  "Signature",
  "Essential",
] as const;
const SHOE_ADJECTIVES = [
  "Classic",
  "Everyday",
  "Premium",
  "Heritage",
  "Vintage",
  "Retro",
  "Sport",
  "Lightweight",
  "Minimal",
  "Signature",
  "Essential",
  "Urban",
  "Low-Profile",
  "Chunky",
] as const;
const COLOURS = [
  "Black",
  "White",
  "Navy",
  "Olive",
  "Beige",
  "Charcoal",
  "Burgundy",
  "Sand",
  "Forest Green",
  "Sky Blue",
  "Rust",
  "Cream",
  "Stone",
  "Chocolate",
  "Dusty Pink",
  "Mustard",
  "Lilac",
  "Ecru",
] as const;
const OPENINGS = [
  "versatile",
  "wardrobe-ready",
  "easy-to-wear",
  "modern",
  "timeless",
  "comfortable",
  "thoughtfully made",
  "go-to",
  "understated",
  "everyday",
] as const;
const CLOSINGS = [
  "Designed to mix and match with the rest of your wardrobe.",
  "Built to last season after season.",
  "A reliable choice for everyday wear.",
  "Made with responsibly sourced materials.",
  "Easy to care for and made to keep its shape.",
  "True to size; take your usual size.",
  "Pairs well with denim and clean sneakers.",
  "Perfect for weekends, travel and everything in between.",
] as const;

function pick<T>(rand: () => number, list: readonly T[]): T {
  const item = list[Math.floor(rand() * list.length)];
  if (item === undefined) throw new Error("pick from empty list");
  return item;
}

function randInt(rand: () => number, min: number, max: number): number {
  return min + Math.floor(rand() * (max - min + 1));
}

function money(n: number): string {
  return n.toFixed(2);
}

/** Image URLs of shipped demo products, grouped by item kind and by category. */
function imagePools(): { byKind: Map<ItemKind, string[]>; byCategory: Map<Category, string[]> } {
  const byKind = new Map<ItemKind, string[]>();
  const byCategory = new Map<Category, string[]>();
  for (const p of DEMO_PRODUCTS) {
    const kind = productKind(p.title, p.category);
    byKind.set(kind, [...(byKind.get(kind) ?? []), p.image]);
    byCategory.set(p.category, [...(byCategory.get(p.category) ?? []), p.image]);
  }
  return { byKind, byCategory };
}

/**
 * Deterministic pseudo-random catalogue of `count` products for benchmarks.
 * The same (count, seed) always yields the same sequence. Titles are unique
 * within one run (a style number is appended on the rare collision); images
 * reuse the shipped demo SVGs of the same item kind.
 */
export function* generatedProducts(
  count: number,
  seed = 42,
  firstNumber = 1,
): Generator<Omit<DemoProduct, "slug">> {
  const rand = mulberry32(seed);
  // Variants draw from a stream of their own, so the products stay what they were before variants.
  const variantRand = mulberry32(seed ^ 0x9e3779b9);
  const { byKind, byCategory } = imagePools();
  const seen = new Set<string>();

  for (let i = 0; i < count; i++) {
    const category = pick(rand, CATEGORIES);
    const brand = pick(rand, BRANDS);
    const item = pick(rand, ITEMS[category]);
    const material = pick(rand, item.materials);
    const colour = pick(rand, COLOURS);
    const adjectives: readonly string[] =
      category === "footwear" || item.kind === "sneaker"
        ? SHOE_ADJECTIVES
        : category === "accessories"
          ? ACC_ADJECTIVES
          : FIT_ADJECTIVES;
    const adjective = pick(rand, adjectives);
    const prefix = category === "kids" ? "Kids' " : "";

    let title = "";
    for (let attempt = 0; attempt < 4; attempt++) {
      const style = attempt === 0 ? Math.floor(rand() * 3) : (attempt + Math.floor(rand() * 3)) % 3;
      const adj = attempt === 0 ? adjective : pick(rand, adjectives);
      const col = attempt === 0 ? colour : pick(rand, COLOURS);
      const mat = attempt === 0 ? material : pick(rand, item.materials);
      if (style === 0) title = `${prefix}${adj} ${mat} ${item.noun}`;
      else if (style === 1) title = `${prefix}${col} ${adj} ${item.noun}`;
      else title = `${prefix}${adj} ${col} ${mat} ${item.noun}`;
      if (!seen.has(title)) break;
    }
    if (seen.has(title)) title = `${title} No. ${i + 1}`;
    seen.add(title);

    const opening = pick(rand, OPENINGS);
    const noun = item.noun === "Socks 3-Pack" ? "3-pack of socks" : item.noun.toLowerCase();
    const lead = /(?<!s)s$/.test(noun)
      ? opening.charAt(0).toUpperCase() + opening.slice(1)
      : `${/^[aeiou]/.test(opening) ? "An" : "A"} ${opening}`;
    const description =
      `${lead} ${noun} in ${colour.toLowerCase()} ${material.toLowerCase()}, ` +
      `featuring ${pick(rand, item.feature)}. ${pick(rand, CLOSINGS)}`;

    const whole = randInt(rand, item.min, item.max);
    const priceNum = Math.min(249.99, Math.max(9.99, whole + 0.99));
    let salePrice: string | null = null;
    if (rand() < 0.25) {
      const discount = 0.1 + rand() * 0.4;
      const saleNum = Math.max(4.99, Math.floor(priceNum * (1 - discount)) - 0.01);
      if (saleNum < priceNum) salePrice = money(saleNum);
    }

    const r = rand();
    const totalStock = r < 0.03 ? 0 : r < 0.13 ? randInt(rand, 1, 9) : randInt(rand, 10, 120);

    const kindPool = byKind.get(item.kind) ?? [];
    const pool = kindPool.length > 0 ? kindPool : (byCategory.get(category) ?? []);
    const image = pick(rand, pool);

    yield {
      title,
      description,
      category,
      brand,
      price: money(priceNum),
      salePrice,
      totalStock,
      image,
      material: null,
      variants: generatedVariants(
        variantRand,
        category,
        totalStock,
        `GEN-${String(firstNumber + i).padStart(6, "0")}`,
      ),
    };
  }
}

/**
 * A generated product's variants: four to six neighbouring sizes of its
 * category's run (or two or three sizes in two colours), an accessory one
 * size in one or two colours; sometimes one size sold out. SKUs are the
 * product's stem with the size and colour.
 */
function generatedVariants(
  rand: () => number,
  category: Category,
  total: number,
  stem: string,
): DemoVariant[] {
  const run = RUN_BY_CATEGORY[category];
  const twoColours = rand() < (category === "accessories" ? 0.3 : 0.2);
  const colours = twoColours ? pickColours(rand, 2) : [];
  const wanted =
    run.length === 1 ? 1 : twoColours ? randInt(rand, 2, 3) : randInt(rand, 4, Math.min(6, run.length));
  const from = randInt(rand, 0, run.length - wanted);
  const options = optionsOf(run.slice(from, from + wanted), colours);
  const soldOutAt = options.length > 2 && rand() < 0.3 ? randInt(rand, 0, options.length - 1) : -1;
  const stock = distributeStock(options, total, (at) => at === soldOutAt);
  return options.map((option, at) => ({
    sku: variantSku(stem, option.size, option.colour),
    size: option.size,
    colour: option.colour,
    position: at,
    totalStock: stock[at]!,
  }));
}

function pickColours(rand: () => number, count: number): string[] {
  const start = randInt(rand, 0, VARIANT_COLOURS.length - 1);
  return Array.from(
    { length: count },
    (_, at) => VARIANT_COLOURS[(start + at * 5) % VARIANT_COLOURS.length]!.value,
  );
}
