// The fast path of validateBody: plainToInstance and validateSync re-enacted, for the features the
// DTOs use, from a plan compiled once per class (dto-plan.ts). It only ever ACCEPTS. Whatever it
// does not reproduce exactly (non-JSON values, bodies the defensive copy would cut, members not
// declared, any failed or asynchronous check) makes it give up, and validateBody runs the full
// path, which names the violations. Validators and conditions receive what they receive under
// class-validator (DTO instances built as class-transformer builds them, the same arguments), so
// deterministic validators decide alike; the property test holds both paths to the same results.
import { TransformationType } from 'class-transformer';
import { planFor, type ConstraintPlan, type DtoClass, type DtoPlan, type MemberPlan } from './dto-plan';
import { toPlainData } from './full-validation';
import { JSON_LIMITS } from './sanitize-json';
import { PLAIN_TO_INSTANCE_OPTIONS } from './transformer-metadata';

/** Thrown when the fast path gives up; not an Error, so no stack trace is captured. */
const GIVE_UP: unknown = Object.freeze({ fastPath: 'gave up' });

// plainToInstance converts values whose target type is one of these (String(v), new Date(v)...).
const COERCING = new Set<unknown>([String, Number, Boolean, Date, globalThis.Buffer].filter(Boolean));

type Bag = Record<string, unknown>;

/** The plain validated value of `body`, or undefined when the full path must decide. */
export function validateFast<T extends object>(dto: new () => T, body: object): T | undefined {
  const plan = planFor(dto);
  if (!plan) return undefined;
  try {
    const instance = instantiate(plan, body, 0);
    validateInstance(plan, instance);
    return toPlainData(instance) as T;
  } catch {
    return undefined; // GIVE_UP, or a validator that threw: the full path reports it its own way
  }
}

/** plainToInstance for one object of the sent body (`depth` as sanitizeJson counts it). */
function instantiate(plan: DtoPlan, sent: object, depth: number): Bag {
  // Only what the defensive copy would copy unchanged: plain objects within its limits (and not
  // thenables, which class-transformer would treat as promises).
  if (depth >= JSON_LIMITS.maxDepth || Object.getPrototypeOf(sent) !== Object.prototype) throw GIVE_UP;
  if (typeof (sent as Bag).then === 'function') throw GIVE_UP;
  const keys = Object.keys(sent);
  if (keys.length > JSON_LIMITS.maxKeys) throw GIVE_UP;
  const instance = new plan.dto() as Bag;
  for (const key of keys) {
    const member = plan.members.get(key);
    if (member === undefined) throw GIVE_UP; // unknown member (own name): the full path names it
    let value = convert(member, instance, sent, (sent as Bag)[key], depth);
    if (member.transforms.length > 0) {
      for (const transform of member.transforms) {
        value = transform({ value, key, obj: sent, type: TransformationType.PLAIN_TO_CLASS, options: PLAIN_TO_INSTANCE_OPTIONS });
      }
      // Objects made by a transform are not walked by the full path's own-name check: give up.
      if ((typeof value === 'object' && value !== null) || typeof value === 'function') throw GIVE_UP;
    }
    instance[key] = value;
  }
  return instance;
}

/** One member's value as plainToInstance makes it: primitives as sent, `@Type` objects as instances. */
function convert(member: MemberPlan, instance: Bag, sent: object, value: unknown, depth: number): unknown {
  const target = member.type?.typeFunction({ newObject: instance, object: sent as Bag, property: member.name });
  if (target !== undefined && COERCING.has(target)) throw GIVE_UP;
  const kind = typeof value;
  if (kind === 'string' || kind === 'number' || kind === 'boolean' || value === undefined || value === null) return value;
  if (kind !== 'object' || typeof target !== 'function') throw GIVE_UP; // bigint..., or an untyped object
  const nested = planFor(target as DtoClass);
  if (!nested) throw GIVE_UP;
  if (!Array.isArray(value)) return instantiate(nested, value as object, depth + 1);
  if (!member.plainArrays || depth + 1 >= JSON_LIMITS.maxDepth || value.length > JSON_LIMITS.maxArrayItems) throw GIVE_UP;
  if (Object.getPrototypeOf(value) !== Array.prototype) throw GIVE_UP;
  const items: Bag[] = [];
  for (let i = 0; i < value.length; i++) {
    const item: unknown = value[i];
    if (typeof item !== 'object' || item === null || Array.isArray(item)) throw GIVE_UP;
    items.push(instantiate(nested, item, depth + 2));
  }
  return items;
}

/** validateSync (whitelist, forbidUnknownValues) on an instance built by `instantiate`. */
function validateInstance(plan: DtoPlan, object: Bag): void {
  // Whitelist: every key of an instance built above is a declared member (checked while building).
  for (const member of plan.ordered) {
    const value = object[member.name];
    if (member.conditions.length > 0) {
      let run: unknown = true;
      for (const condition of member.conditions) {
        const result = condition(object, value); // every condition runs, as in class-validator
        run = run && result;
      }
      if (!run) continue;
    }
    for (const constraint of member.defined) check(plan, constraint, object, value);
    for (const constraint of member.custom) check(plan, constraint, object, value);
    if (member.nested) validateNested(value);
  }
}

function check(plan: DtoPlan, constraint: ConstraintPlan, object: Bag, value: unknown): void {
  const args = { targetName: plan.targetName, property: constraint.property, object, value, constraints: constraint.constraints };
  if (constraint.each && (Array.isArray(value) || value instanceof Set || value instanceof Map)) {
    if (!Array.isArray(value)) throw GIVE_UP;
    const results = value.map((item: unknown) => constraint.validate(item, args));
    for (const result of results) if (!result || isPromise(result)) throw GIVE_UP;
    return;
  }
  const result = constraint.validate(value, args);
  // A promise from a sync constraint is ignored by validateSync; leave that oddity to it.
  if (!result || isPromise(result)) throw GIVE_UP;
}

function validateNested(value: unknown): void {
  if (value === undefined) return;
  if (Array.isArray(value)) {
    value.forEach((item: unknown) => validateNested(item));
    return;
  }
  if (value instanceof Set || value instanceof Map || !(value instanceof Object)) throw GIVE_UP;
  const plan = planFor(value.constructor as DtoClass);
  if (!plan) throw GIVE_UP; // no metadata: forbidUnknownValues refuses it
  validateInstance(plan, value as Bag);
}

function isPromise(value: unknown): boolean {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}
