// What the fast path needs to know about a DTO class, read ONCE from class-validator's and
// class-transformer's metadata storages (the full path looks these up on every call, and that
// was most of its cost). A class whose metadata uses a feature the fast path does not reproduce
// exactly gets no plan, and its bodies always take the full path.
import 'reflect-metadata';
import { getMetadataStorage, ValidationTypes, type MetadataStorage } from 'class-validator';
import { transformerMetadata, type TransformFn, type TypeMetadata } from './transformer-metadata';

/** One class-validator constraint on a member (`@MaxLength(140)`, `@IsDefined()`, ...). */
export interface ConstraintPlan {
  readonly validate: (value: unknown, args: object) => unknown;
  readonly property: string;
  readonly constraints: unknown[] | undefined;
  readonly each: boolean;
}

export interface MemberPlan {
  readonly name: string;
  /** `@ValidateIf` conditions: all false-y → no other check of the member runs. */
  readonly conditions: ((object: object, value: unknown) => unknown)[];
  /** `@IsDefined` first, then the other constraints, as class-validator runs them. */
  readonly defined: ConstraintPlan[];
  readonly custom: ConstraintPlan[];
  readonly nested: boolean;
  /** class-transformer's `@Type`, called per value as class-transformer calls it. */
  readonly type: TypeMetadata | undefined;
  /** class-transformer builds a plain array for an array value (not a Set or a custom type). */
  readonly plainArrays: boolean;
  readonly transforms: TransformFn[];
}

export interface DtoPlan {
  readonly dto: DtoClass;
  readonly targetName: string;
  /** Declared members by OWN name (a `Map`, so `valueOf` is never found on a prototype). */
  readonly members: ReadonlyMap<string, MemberPlan>;
  /** In class-validator's order (first appearance in the target's metadata). */
  readonly ordered: readonly MemberPlan[];
}

/** Keys `sanitizeJson` cuts or class-transformer skips: never declared members of a plan. */
const UNSAFE_NAMES = new Set(['__proto__', 'constructor', 'prototype']);
const SUPPORTED_TYPES = new Set<string>([
  ValidationTypes.IS_DEFINED,
  ValidationTypes.CUSTOM_VALIDATION,
  ValidationTypes.NESTED_VALIDATION,
  ValidationTypes.CONDITIONAL_VALIDATION,
  ValidationTypes.WHITELIST,
]);

type ValidationMetadata = ReturnType<MetadataStorage['getTargetValidationMetadatas']>[number];

/** A DTO class as the storages know it (its constructor takes no arguments). */
export type DtoClass = new () => object;

const plans = new Map<DtoClass, DtoPlan | null>();

/** The plan of `dto`, compiled on first use; null when only the full path handles it. */
export function planFor(dto: DtoClass): DtoPlan | null {
  let plan = plans.get(dto);
  if (plan === undefined) {
    try {
      plan = compile(dto);
    } catch {
      plan = null;
    }
    plans.set(dto, plan);
  }
  return plan;
}

function compile(dto: DtoClass): DtoPlan | null {
  const storage = getMetadataStorage();
  // The same query the ValidationExecutor makes for validateSync without groups.
  const metadatas = storage.getTargetValidationMetadatas(dto, '', false, false, undefined);
  if (metadatas.length === 0) return null; // forbidUnknownValues refuses every instance
  if (!transformerMetadata.plainByDefault(dto)) return null;
  const byName = new Map<string, ValidationMetadata[]>();
  for (const m of metadatas) {
    if (!SUPPORTED_TYPES.has(m.type) || typeof m.propertyName !== 'string') return null;
    const list = byName.get(m.propertyName) ?? [];
    list.push(m);
    byName.set(m.propertyName, list);
  }
  const instance = new dto();
  // Class fields are own members of a new instance: they must be declared and unset, or the
  // whitelist (or toPlainData) would see members nobody sent.
  for (const key of Object.keys(instance)) {
    if (!byName.has(key) || (instance as Record<string, unknown>)[key] !== undefined) return null;
  }
  const ordered: MemberPlan[] = [];
  for (const [name, list] of byName) {
    // class-transformer skips names found on the prototype chain (methods, accessors, valueOf...).
    if (UNSAFE_NAMES.has(name) || name in dto.prototype) return null;
    const member = compileMember(dto, name, list);
    if (!member) return null;
    ordered.push(member);
  }
  return { dto, targetName: dto.name, members: new Map(ordered.map((m) => [m.name, m])), ordered };
}

function compileMember(dto: DtoClass, name: string, list: ValidationMetadata[]): MemberPlan | null {
  const storage = getMetadataStorage();
  const constraint = (m: ValidationMetadata): ConstraintPlan[] | null => {
    const out: ConstraintPlan[] = [];
    for (const c of storage.getTargetValidatorConstraints(m.constraintCls)) {
      // validateSync skips async constraints altogether (ignoreAsyncValidations).
      if (c.async) continue;
      const instance = c.instance as { validate?: (value: unknown, args: object) => unknown };
      if (typeof instance?.validate !== 'function') return null;
      out.push({ validate: instance.validate.bind(instance), property: m.propertyName, constraints: m.constraints, each: m.each === true });
    }
    return out;
  };
  const conditions: MemberPlan['conditions'] = [];
  const defined: ConstraintPlan[] = [];
  const custom: ConstraintPlan[] = [];
  let nested = false;
  for (const m of list) {
    if (m.type === ValidationTypes.CONDITIONAL_VALIDATION) {
      if (typeof m.constraints?.[0] !== 'function') return null;
      conditions.push(m.constraints[0] as MemberPlan['conditions'][number]);
    } else if (m.type === ValidationTypes.NESTED_VALIDATION) nested = true;
    else if (m.type !== ValidationTypes.WHITELIST) {
      const compiled = constraint(m);
      if (!compiled) return null;
      (m.type === ValidationTypes.IS_DEFINED ? defined : custom).push(...compiled);
    }
  }
  const type = transformerMetadata.typeOf(dto, name);
  if (type && (type.options?.discriminator || type.reflectedType === Map)) return null;
  const reflected = type?.reflectedType;
  const plainArrays = reflected === undefined || reflected === Array || reflected === Object;
  return { name, conditions, defined, custom, nested, type, plainArrays, transforms: transformerMetadata.transformsOf(dto, name) };
}
