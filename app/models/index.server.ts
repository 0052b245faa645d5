import {
  DataTypes,
  Model,
  type CreationOptional,
  type ForeignKey,
  type InferAttributes,
  type InferCreationAttributes,
  type ModelAttributeColumnOptions,
  type NonAttribute,
  type Sequelize,
} from "sequelize";
import type { OrderStatus, PaymentStatus } from "~/lib/shared/order-options";
import { PRODUCT_FIELD_LIST, type ProductField, type ProductRow } from "~/lib/shared/product";

/**
 * Sequelize models. The schema itself is owned by the migrations in
 * db/migrations (never `sync()`); these definitions mirror it for queries.
 * Money columns are DECIMAL(10,2) and arrive as strings: keep them as strings
 * until app/lib/shared/money.ts turns them into cents.
 */

export const ROLES = ["user", "admin", "staff"] as const;
export type Role = (typeof ROLES)[number];

export { BRANDS, CATEGORIES, type Brand, type Category } from "~/lib/shared/catalog-options";

export {
  ORDER_STATUSES,
  PAYMENT_STATUSES,
  type OrderStatus,
  type PaymentStatus,
} from "~/lib/shared/order-options";

export class User extends Model<InferAttributes<User>, InferCreationAttributes<User>> {
  declare id: CreationOptional<string>;
  declare userName: string;
  declare email: string;
  declare passwordHash: string;
  declare role: CreationOptional<Role>;
  /** A staff member's areas (app/lib/shared/permissions.ts); an admin holds every one whatever this says. */
  declare permissions: CreationOptional<string[]>;
  /** Set: the person can no longer sign in, and their sessions and API keys stop working. */
  declare disabledAt: CreationOptional<Date | null>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

export class Session extends Model<InferAttributes<Session>, InferCreationAttributes<Session>> {
  declare id: CreationOptional<string>;
  declare userId: ForeignKey<User["id"]>;
  declare data: CreationOptional<Record<string, unknown>>;
  declare expiresAt: Date;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

/** The product's fields as the model holds them: its definition's rows, the read-only ones filled in by the shop. */
type ProductAttributes = {
  [K in keyof ProductRow]: K extends "id" | "averageReview" | "version"
    ? CreationOptional<ProductRow[K]>
    : ProductRow[K];
};

// The product's attributes come from its one definition (lib/shared/product.ts), merged into the
// class's instance type, instead of a `declare` per field that a new field would have to repeat.
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type
export interface Product extends ProductAttributes {}
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class Product extends Model<InferAttributes<Product>, InferCreationAttributes<Product>> {
  /** Kept by PostgreSQL's triggers: the lowest price a shopper pays for one of its variants. */
  declare effectivePrice: CreationOptional<string>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

export class ProductVariant extends Model<
  InferAttributes<ProductVariant>,
  InferCreationAttributes<ProductVariant>
> {
  declare id: CreationOptional<string>;
  declare productId: ForeignKey<Product["id"]>;
  declare sku: string;
  declare size: string | null;
  declare colour: string | null;
  /** Display order: sizes in their scale's order, then colours (lib/shared/variants.ts). */
  declare position: number;
  declare totalStock: number;
  /** Its own price and sale price, or null for the product's. */
  declare price: string | null;
  declare salePrice: string | null;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

export class Cart extends Model<InferAttributes<Cart>, InferCreationAttributes<Cart>> {
  declare id: CreationOptional<string>;
  declare userId: ForeignKey<User["id"]>;
  declare items?: NonAttribute<CartItem[]>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

export class CartItem extends Model<InferAttributes<CartItem>, InferCreationAttributes<CartItem>> {
  declare id: CreationOptional<string>;
  declare cartId: ForeignKey<Cart["id"]>;
  declare productId: ForeignKey<Product["id"]>;
  declare variantId: ForeignKey<ProductVariant["id"]>;
  declare quantity: number;
  declare product?: NonAttribute<Product>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

export class Address extends Model<InferAttributes<Address>, InferCreationAttributes<Address>> {
  declare id: CreationOptional<string>;
  declare userId: ForeignKey<User["id"]>;
  declare address: string;
  declare city: string;
  declare pincode: string;
  declare phone: string;
  declare notes: string;
  /** The destination's ISO 3166-1 country and region (null on rows written before: derived on read). */
  declare country: CreationOptional<string | null>;
  declare region: CreationOptional<string | null>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

export interface AddressSnapshot {
  addressId: string | null;
  address: string;
  city: string;
  pincode: string;
  phone: string;
  notes: string;
  /** The destination the order was taxed for (absent on orders placed before tax). */
  country?: string;
  region?: string | null;
}

export class Order extends Model<InferAttributes<Order>, InferCreationAttributes<Order>> {
  declare id: CreationOptional<string>;
  /** Null for a guest's order (migration 0043): then the email and the hash of its private link's token. */
  declare userId: ForeignKey<User["id"]> | null;
  declare guestEmail: CreationOptional<string | null>;
  declare guestTokenHash: CreationOptional<string | null>;
  declare marketingConsent: CreationOptional<boolean>;
  declare cartId: string | null;
  declare addressInfo: AddressSnapshot;
  declare orderStatus: CreationOptional<OrderStatus>;
  declare paymentMethod: CreationOptional<string>;
  declare paymentStatus: CreationOptional<PaymentStatus>;
  declare totalAmount: string;
  declare orderDate: CreationOptional<Date>;
  declare orderUpdateDate: CreationOptional<Date>;
  declare paymentId: string | null;
  declare payerId: string | null;
  declare captureId: CreationOptional<string | null>;
  /** When the order entered payment_status `capturing` (the reconciler's clock). */
  declare captureStartedAt: CreationOptional<Date | null>;
  /** The parcel's tracking, set by the admin when the order ships (lib/shared/tracking.ts). */
  declare trackingNumber: CreationOptional<string | null>;
  declare carrier: CreationOptional<string | null>;
  /** The money's parts (lib/shared/order-money.ts); without them the database takes subtotal = total. */
  declare subtotal: CreationOptional<string>;
  declare shippingAmount: CreationOptional<string>;
  declare discountAmount: CreationOptional<string>;
  /** The delivery option and the code as they were when ordered (snapshots). */
  declare shippingMethodId: CreationOptional<string | null>;
  declare shippingMethodName: CreationOptional<string | null>;
  declare shippingMethodPrice: CreationOptional<string | null>;
  declare discountCode: CreationOptional<string | null>;
  declare discountCodeId: CreationOptional<string | null>;
  /** The tax as computed when ordered (lib/shared/order-tax.ts). */
  declare taxAmount: CreationOptional<string>;
  declare taxLines: CreationOptional<{ name: string; rate: number; amount: number }[]>;
  declare shippingTaxCents: CreationOptional<number>;
  declare pricesIncludeTax: CreationOptional<boolean>;
  declare items?: NonAttribute<OrderItem[]>;
  declare user?: NonAttribute<User>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

export class OrderItem extends Model<InferAttributes<OrderItem>, InferCreationAttributes<OrderItem>> {
  declare id: CreationOptional<string>;
  declare orderId: ForeignKey<Order["id"]>;
  declare productId: string | null;
  /** The variant as it was when ordered (no foreign key: a later change of the variant changes no order). */
  declare variantId: string | null;
  declare sku: string | null;
  declare size: string | null;
  declare colour: string | null;
  declare title: string;
  declare image: string;
  declare price: string;
  declare quantity: number;
  /** The line's share of the order's discount, in cents. */
  declare discountCents: CreationOptional<number>;
  /** The line's tax, all rates together, in cents. */
  declare taxCents: CreationOptional<number>;
}

export class Review extends Model<InferAttributes<Review>, InferCreationAttributes<Review>> {
  declare id: CreationOptional<string>;
  declare productId: ForeignKey<Product["id"]>;
  declare userId: ForeignKey<User["id"]>;
  declare userName: string;
  declare reviewMessage: string;
  declare reviewValue: number;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

export class FeatureImage extends Model<
  InferAttributes<FeatureImage>,
  InferCreationAttributes<FeatureImage>
> {
  declare id: CreationOptional<string>;
  declare image: string;
  /** The banner's HTML text over the artwork (optional; the home page has defaults). */
  declare title: CreationOptional<string | null>;
  declare subtitle: CreationOptional<string | null>;
  /** A path on the shop, such as /shop/listing?category=men. */
  declare link: CreationOptional<string | null>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

export interface Models {
  User: typeof User;
  Session: typeof Session;
  Product: typeof Product;
  ProductVariant: typeof ProductVariant;
  Cart: typeof Cart;
  CartItem: typeof CartItem;
  Address: typeof Address;
  Order: typeof Order;
  OrderItem: typeof OrderItem;
  Review: typeof Review;
  FeatureImage: typeof FeatureImage;
}

const uuidKey = {
  type: DataTypes.UUID,
  primaryKey: true,
  defaultValue: DataTypes.UUIDV4,
} as const;
const timestamps = {
  createdAt: { type: DataTypes.DATE },
  updatedAt: { type: DataTypes.DATE },
} as const;
const money = (allowNull = false) => ({ type: DataTypes.DECIMAL(10, 2), allowNull });

/** A product field's column, by its kind (the migrations own the schema; this mirrors it). */
function productColumn(field: ProductField): ModelAttributeColumnOptions {
  const column = { field: field.column };
  switch (field.kind) {
    case "id":
      return { ...column, ...uuidKey };
    case "image":
      return { ...column, type: DataTypes.TEXT, allowNull: false };
    case "text":
      return {
        ...column,
        type: field.multiline ? DataTypes.TEXT : DataTypes.STRING(field.max),
        allowNull: !field.required,
      };
    case "choice":
      return { ...column, type: DataTypes.STRING(20), allowNull: false };
    case "money":
      return { ...column, ...money(!field.required) };
    case "count":
      return { ...column, type: DataTypes.INTEGER, allowNull: false };
    case "rating":
      return { ...column, type: DataTypes.DECIMAL(3, 2), allowNull: false, defaultValue: "0" };
    case "version":
      return { ...column, type: DataTypes.INTEGER, allowNull: false, defaultValue: 1 };
  }
}

export function defineModels(sequelize: Sequelize): Models {
  const common = { sequelize, underscored: true } as const;

  User.init(
    {
      id: uuidKey,
      userName: { type: DataTypes.STRING(50), allowNull: false },
      email: { type: DataTypes.STRING(254), allowNull: false },
      passwordHash: { type: DataTypes.TEXT, allowNull: false },
      role: { type: DataTypes.STRING(10), allowNull: false, defaultValue: "user" },
      permissions: { type: DataTypes.ARRAY(DataTypes.TEXT), allowNull: false, defaultValue: [] },
      disabledAt: { type: DataTypes.DATE, allowNull: true },
      ...timestamps,
    },
    { ...common, tableName: "users" },
  );

  Session.init(
    {
      id: uuidKey,
      data: { type: DataTypes.JSONB, allowNull: false, defaultValue: {} },
      expiresAt: { type: DataTypes.DATE, allowNull: false },
      ...timestamps,
    },
    { ...common, tableName: "sessions" },
  );

  Product.init(
    {
      ...(Object.fromEntries(PRODUCT_FIELD_LIST.map((field) => [field.name, productColumn(field)])) as {
        [K in keyof ProductRow]: ModelAttributeColumnOptions;
      }),
      effectivePrice: { type: DataTypes.DECIMAL(10, 2) },
      ...timestamps,
    },
    { ...common, tableName: "products" },
  );

  ProductVariant.init(
    {
      id: uuidKey,
      sku: { type: DataTypes.STRING(64), allowNull: false },
      size: { type: DataTypes.STRING(20), allowNull: true },
      colour: { type: DataTypes.STRING(20), allowNull: true },
      position: { type: DataTypes.SMALLINT, allowNull: false, defaultValue: 0 },
      totalStock: { type: DataTypes.INTEGER, allowNull: false },
      price: money(true),
      salePrice: money(true),
      ...timestamps,
    },
    { ...common, tableName: "product_variants" },
  );

  Cart.init({ id: uuidKey, ...timestamps }, { ...common, tableName: "carts" });

  CartItem.init(
    {
      id: uuidKey,
      quantity: { type: DataTypes.INTEGER, allowNull: false },
      ...timestamps,
    },
    { ...common, tableName: "cart_items" },
  );

  Address.init(
    {
      id: uuidKey,
      address: { type: DataTypes.STRING(200), allowNull: false },
      city: { type: DataTypes.STRING(100), allowNull: false },
      pincode: { type: DataTypes.STRING(20), allowNull: false },
      phone: { type: DataTypes.STRING(30), allowNull: false },
      notes: { type: DataTypes.STRING(500), allowNull: false },
      country: { type: DataTypes.CHAR(2), allowNull: true },
      region: { type: DataTypes.STRING(3), allowNull: true },
      ...timestamps,
    },
    { ...common, tableName: "addresses" },
  );

  Order.init(
    {
      id: uuidKey,
      guestEmail: { type: DataTypes.STRING(254), allowNull: true },
      guestTokenHash: { type: DataTypes.CHAR(64), allowNull: true },
      marketingConsent: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      cartId: { type: DataTypes.UUID, allowNull: true },
      addressInfo: { type: DataTypes.JSONB, allowNull: false },
      orderStatus: { type: DataTypes.STRING(20), allowNull: false, defaultValue: "pending" },
      paymentMethod: { type: DataTypes.STRING(20), allowNull: false, defaultValue: "paypal" },
      paymentStatus: { type: DataTypes.STRING(20), allowNull: false, defaultValue: "pending" },
      totalAmount: money(),
      orderDate: { type: DataTypes.DATE, allowNull: false, defaultValue: DataTypes.NOW },
      orderUpdateDate: { type: DataTypes.DATE, allowNull: false, defaultValue: DataTypes.NOW },
      paymentId: { type: DataTypes.STRING(64), allowNull: true },
      payerId: { type: DataTypes.STRING(64), allowNull: true },
      captureId: { type: DataTypes.STRING(64), allowNull: true },
      captureStartedAt: { type: DataTypes.DATE, allowNull: true },
      trackingNumber: { type: DataTypes.STRING(64), allowNull: true },
      carrier: { type: DataTypes.STRING(20), allowNull: true },
      subtotal: money(true),
      shippingAmount: { ...money(), defaultValue: "0.00" },
      discountAmount: { ...money(), defaultValue: "0.00" },
      shippingMethodId: { type: DataTypes.UUID, allowNull: true },
      shippingMethodName: { type: DataTypes.STRING(60), allowNull: true },
      shippingMethodPrice: money(true),
      discountCode: { type: DataTypes.STRING(40), allowNull: true },
      discountCodeId: { type: DataTypes.UUID, allowNull: true },
      taxAmount: { ...money(), defaultValue: "0.00" },
      taxLines: { type: DataTypes.JSONB, allowNull: false, defaultValue: [] },
      shippingTaxCents: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      pricesIncludeTax: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      ...timestamps,
    },
    { ...common, tableName: "orders" },
  );

  OrderItem.init(
    {
      id: uuidKey,
      productId: { type: DataTypes.UUID, allowNull: true },
      variantId: { type: DataTypes.UUID, allowNull: true },
      sku: { type: DataTypes.STRING(64), allowNull: true },
      size: { type: DataTypes.STRING(20), allowNull: true },
      colour: { type: DataTypes.STRING(20), allowNull: true },
      title: { type: DataTypes.STRING(200), allowNull: false },
      image: { type: DataTypes.TEXT, allowNull: false },
      price: money(),
      quantity: { type: DataTypes.INTEGER, allowNull: false },
      discountCents: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      taxCents: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    },
    { ...common, tableName: "order_items", timestamps: false },
  );

  Review.init(
    {
      id: uuidKey,
      userName: { type: DataTypes.STRING(50), allowNull: false },
      reviewMessage: { type: DataTypes.STRING(1000), allowNull: false },
      reviewValue: { type: DataTypes.SMALLINT, allowNull: false },
      ...timestamps,
    },
    { ...common, tableName: "reviews" },
  );

  FeatureImage.init(
    {
      id: uuidKey,
      image: { type: DataTypes.TEXT, allowNull: false },
      title: { type: DataTypes.STRING(80), allowNull: true },
      subtitle: { type: DataTypes.STRING(160), allowNull: true },
      link: { type: DataTypes.STRING(300), allowNull: true },
      ...timestamps,
    },
    { ...common, tableName: "feature_images" },
  );

  User.hasMany(Session, { foreignKey: "userId", onDelete: "CASCADE" });
  Session.belongsTo(User, { foreignKey: "userId", as: "user" });
  User.hasOne(Cart, { foreignKey: "userId", onDelete: "CASCADE" });
  Cart.belongsTo(User, { foreignKey: "userId" });
  Cart.hasMany(CartItem, { foreignKey: "cartId", as: "items", onDelete: "CASCADE" });
  CartItem.belongsTo(Cart, { foreignKey: "cartId" });
  CartItem.belongsTo(Product, { foreignKey: "productId", as: "product" });
  Product.hasMany(CartItem, { foreignKey: "productId", onDelete: "CASCADE" });
  Product.hasMany(ProductVariant, { foreignKey: "productId", as: "variants", onDelete: "CASCADE" });
  ProductVariant.belongsTo(Product, { foreignKey: "productId" });
  CartItem.belongsTo(ProductVariant, { foreignKey: "variantId", as: "variant" });
  User.hasMany(Address, { foreignKey: "userId", onDelete: "CASCADE" });
  Address.belongsTo(User, { foreignKey: "userId" });
  User.hasMany(Order, { foreignKey: "userId", onDelete: "RESTRICT" });
  Order.belongsTo(User, { foreignKey: "userId", as: "user" });
  Order.hasMany(OrderItem, { foreignKey: "orderId", as: "items", onDelete: "CASCADE" });
  OrderItem.belongsTo(Order, { foreignKey: "orderId" });
  Product.hasMany(Review, { foreignKey: "productId", onDelete: "CASCADE" });
  Review.belongsTo(Product, { foreignKey: "productId" });
  User.hasMany(Review, { foreignKey: "userId", onDelete: "CASCADE" });
  Review.belongsTo(User, { foreignKey: "userId" });

  return {
    User,
    Session,
    Product,
    ProductVariant,
    Cart,
    CartItem,
    Address,
    Order,
    OrderItem,
    Review,
    FeatureImage,
  };
}
