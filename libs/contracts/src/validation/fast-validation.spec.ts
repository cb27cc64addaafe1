// The fast path on decorators the contract's DTOs do not use (yet): it either has no plan for the
// class, or gives up on the body, or agrees with the full path; never a different answer.
import 'reflect-metadata';
import { Expose, Transform, Type } from 'class-transformer';
import { Allow, IsDefined, IsInt, IsObject, IsString, MaxLength, ValidateBy, ValidateIf, ValidateNested } from 'class-validator';
import { CobVSolicitadaDto } from '../cobv/cobv-request.dto';
import { officialExample } from '../testing/official-examples';
import { planFor } from './dto-plan';
import { validateFast } from './fast-validation';
import { difference } from './result-difference.fixture';
import { validateBody, validateBodyFully } from './validate-body';

class Exposed {
  @Expose({ name: 'nomeCompleto' })
  @IsString()
  nome!: string;
}

class WithDefault {
  @IsString()
  nome = 'sem nome';
}

class WithMethod {
  @IsString()
  nome!: string;

  valor(): number {
    return 1;
  }

  @IsString()
  get apelido(): string {
    return 'x';
  }
}

class Coerced {
  @Type(() => String)
  @IsString()
  nome!: string;
}

class Conditional {
  @IsString()
  tipo!: string;

  // Reads the instance: the fast path must hand it the same object class-validator does.
  @ValidateIf((o: Conditional) => o.tipo === 'cpf')
  @IsDefined()
  @MaxLength(11)
  documento?: string;

  @Allow()
  livre?: unknown;
}

class Later {
  @ValidateBy({ name: 'assincrono', async: true, validator: { validate: async () => false } })
  @ValidateBy({ name: 'promessa', validator: { validate: () => Promise.resolve(false) as unknown as boolean } })
  @IsInt()
  n!: number;
}

class Item {
  @IsString()
  nome!: string;
}

class Nested {
  @IsObject()
  @ValidateNested()
  @Type(() => Item)
  item!: Item;

  @Transform(({ value }) => (typeof value === 'string' ? value.trim() : value))
  @IsString()
  @MaxLength(3)
  codigo!: string;
}

class Untyped {
  @IsObject()
  livre!: object;
}

class NoMetadata {
  nome?: string;
}

const same = (dto: new () => object, body: unknown) => {
  expect(difference(validateBody(dto, body), validateBodyFully(dto, body))).toBeUndefined();
};

describe('the fast path on unusual DTOs', () => {
  it.each([
    ['@Expose', Exposed],
    ['a field with a default value', WithDefault],
    ['a member named like a method or accessor', WithMethod],
    ['no metadata at all', NoMetadata],
  ])('has no plan for %s, and the full path answers', (_label, dto) => {
    expect(planFor(dto)).toBeNull();
    for (const body of [{}, { nome: 'a' }, { nomeCompleto: 'a' }, { valor: 1 }, { apelido: 'x' }]) same(dto, body);
  });

  it('gives up where class-transformer would coerce (@Type(() => String))', () => {
    expect(planFor(Coerced)).not.toBeNull();
    expect(validateFast(Coerced, { nome: 42 })).toBeUndefined();
    for (const body of [{ nome: 'a' }, { nome: 42 }, {}]) same(Coerced, body);
  });

  it('runs @ValidateIf with the DTO instance, as class-validator does', () => {
    expect(validateFast(Conditional, { tipo: 'cnpj' })).toEqual({ tipo: 'cnpj' });
    expect(validateFast(Conditional, { tipo: 'cpf' })).toBeUndefined();
    expect(validateFast(Conditional, { livre: 'x', tipo: 'cpf', documento: '12345678909' })).toEqual({ tipo: 'cpf', documento: '12345678909', livre: 'x' });
    expect(validateFast(Conditional, { livre: [1], tipo: 'x' })).toBeUndefined(); // an untyped array: full path
    for (const body of [{ tipo: 'cnpj' }, { tipo: 'cpf' }, { tipo: 'cpf', documento: '123456789012' }, { tipo: 'cpf', documento: 1 }, { tipo: 1 }, { livre: null, tipo: 'x' }, { livre: [1, { a: 2 }], tipo: 'x' }]) {
      same(Conditional, body);
    }
  });

  it('skips async constraints as validateSync does, and leaves promises from sync ones to the full path', () => {
    expect(validateFast(Later, { n: 1 })).toBeUndefined();
    expect(validateBody(Later, { n: 1 })).toEqual({ value: { n: 1 }, violacoes: [] });
    for (const body of [{ n: 1 }, { n: 'x' }]) same(Later, body);
  });

  it('builds nested instances and applies @Transform; gives up on objects nobody types', () => {
    expect(validateFast(Nested, { codigo: ' ab ', item: { nome: 'x' } })).toEqual({ item: { nome: 'x' }, codigo: 'ab' });
    expect(validateFast(Untyped, { livre: {} })).toBeUndefined();
    for (const body of [{ codigo: ' ab ', item: { nome: 'x' } }, { codigo: 'abcd', item: {} }, { codigo: 'a', item: [{ nome: 'x' }] }]) same(Nested, body);
    for (const body of [{ livre: {} }, { livre: { a: { b: 1 } } }, { livre: [] }]) same(Untyped, body);
  });

  it('returns the members in the full path\'s order (class fields first) and keeps -0', () => {
    const body = JSON.parse(JSON.stringify(officialExample('cobBody1'))) as Record<string, any>;
    body.calendario.validadeAposVencimento = -0;
    const reversed = Object.fromEntries(Object.entries(body).reverse());
    const fast = validateFast(CobVSolicitadaDto, reversed) as Record<string, any>;
    expect(fast).toBeDefined();
    expect(difference(fast, validateBodyFully(CobVSolicitadaDto, reversed).value)).toBeUndefined();
    expect(Object.is(fast.calendario.validadeAposVencimento, -0)).toBe(true);
  });
});
