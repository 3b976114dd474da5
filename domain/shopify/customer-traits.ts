import { record, text } from '../webhooks/webhook-json';

type Json = Record<string, unknown>;

/** Segment's traits for a person: what `readEmails`, `readPhones` and `readPersonKeys` read (domain/message.ts, advanced-matching.ts). */
export interface PersonTraits {
  email?: string;
  phone?: string;
  firstName?: string;
  lastName?: string;
  address?: { city?: string; state?: string; postalCode?: string; country?: string };
}

function defined<T extends object>(object: T): T {
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined)) as T;
}

/** A Shopify address: `province_code` and `country_code` when given (two letters each), else the names. */
function address(raw: Json | undefined): PersonTraits['address'] | undefined {
  if (raw === undefined) return undefined;
  const mapped = defined({
    city: text(raw.city),
    state: text(raw.province_code) ?? text(raw.province),
    postalCode: text(raw.zip),
    country: text(raw.country_code) ?? text(raw.country),
  });
  return Object.keys(mapped).length === 0 ? undefined : mapped;
}

/**
 * The person of an order, checkout or refund's order: email (the order's, else its contact email, else the
 * customer's), phone (the order's, the billing then shipping address's, the customer's), name and address from the
 * billing address, else the shipping address, else the customer's default address.
 */
export function orderTraits(resource: Json): PersonTraits {
  const customer = record(resource.customer);
  const billing = record(resource.billing_address);
  const shipping = record(resource.shipping_address);
  const home = record(customer?.default_address);
  const place = [billing, shipping, home].find((candidate) => address(candidate) !== undefined);
  const named = [billing, shipping, customer, home].find((candidate) => text(candidate?.first_name) !== undefined || text(candidate?.last_name) !== undefined);
  return defined({
    email: text(resource.email) ?? text(resource.contact_email) ?? text(customer?.email),
    phone: text(resource.phone) ?? text(billing?.phone) ?? text(shipping?.phone) ?? text(customer?.phone),
    firstName: text(named?.first_name),
    lastName: text(named?.last_name),
    address: address(place),
  });
}

/** A customer (customers/create, customers/update): their own email, phone and name, and their default address. */
export function customerTraits(customer: Json): PersonTraits {
  const home = record(customer.default_address);
  return defined({
    email: text(customer.email),
    phone: text(customer.phone) ?? text(home?.phone),
    firstName: text(customer.first_name) ?? text(home?.first_name),
    lastName: text(customer.last_name) ?? text(home?.last_name),
    address: address(home),
  });
}
