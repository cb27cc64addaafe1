// Small decorators shared by the request DTOs. They only express JSON Schema shape rules that
// class-validator has no built-in for; business rules belong to the domain.
import { Transform } from 'class-transformer';
import { ValidateBy, ValidateIf, ValidationOptions } from 'class-validator';
import { isCalendarDate } from './patterns';

/**
 * Optional in the JSON Schema sense: absent is fine, but an explicit `null` is NOT (the schema
 * types are never nullable). class-validator's @IsOptional would accept null, hence this.
 */
export function OptionalField(): PropertyDecorator {
  return ValidateIf((_object: unknown, value: unknown) => value !== undefined);
}

/**
 * Integer fields that official examples send as strings (`cobBody1` has `modalidade: "2"`):
 * a string of plain decimal digits becomes a number, anything else is left for @IsInt to reject.
 */
export function IntegerFromNumericString(): PropertyDecorator {
  return Transform(({ value }) =>
    typeof value === 'string' && /^-?\d{1,10}$/.test(value) ? Number(value) : value,
  );
}

/** `format: date`: strict YYYY-MM-DD naming an existing day. */
export function IsCalendarDateString(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy({ name: 'isCalendarDate', validator: { validate: (v) => isCalendarDate(v) } }, options);
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * `devedor` is `oneOf: [PessoaFisica, PessoaJuridica]`: exactly one of `cpf` / `cnpj`.
 * Attached to the parent's `devedor` property so the violation names the object
 * ("O objeto cobv.devedor não respeita o _schema_.", as in the official example).
 */
export function HasExactlyOneDocument(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'hasExactlyOneDocument',
      validator: {
        // Non-objects are reported by @IsObject on the same property.
        validate: (v) => !isPlainObject(v) || (v.cpf !== undefined) !== (v.cnpj !== undefined),
      },
    },
    options,
  );
}

/** Identity used for `uniqueItems` on arrays of small objects (deep equality by JSON text). */
export function itemIdentity(item: unknown): unknown {
  if (!isPlainObject(item)) return item;
  try {
    return JSON.stringify(Object.entries(item).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : 1)));
  } catch {
    return item; // e.g. BigInt values: fall back to reference identity
  }
}
