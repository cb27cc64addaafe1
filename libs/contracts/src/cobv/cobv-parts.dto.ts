// Nested request objects of a cobv body other than `valor`: calendario, devedor, loc and the
// infoAdicionais items. Shape only (types, required, lengths, patterns); semantics such as
// CPF/CNPJ check digits or the due date being in the future are checked by the domain.
import 'reflect-metadata';
import {
  IsDefined,
  IsIn,
  IsInt,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { IsCalendarDateString, OptionalField } from '../validation/dto-decorators';
import { CONTRACT_PATTERNS, INT32_MAX, INT32_MIN } from '../validation/patterns';

/** PUT `calendario` (schema CobDataDeVencimento): `dataDeVencimento` is required. */
export class CalendarioSolicitadoDto {
  @IsDefined()
  @IsCalendarDateString()
  dataDeVencimento!: string;

  // int32 only; "menor do que zero" is a separately named contract violation, left to the domain.
  @OptionalField()
  @IsInt()
  @Min(INT32_MIN)
  @Max(INT32_MAX)
  validadeAposVencimento?: number;
}

/** PATCH `calendario`: a revision may change either field alone. */
export class CalendarioRevisadoDto {
  @OptionalField()
  @IsCalendarDateString()
  dataDeVencimento?: string;

  @OptionalField()
  @IsInt()
  @Min(INT32_MIN)
  @Max(INT32_MAX)
  validadeAposVencimento?: number;
}

/**
 * `devedor` (schema DadosDevedor): PessoaFisica | PessoaJuridica plus email and address.
 * "Exactly one of cpf/cnpj" is checked HERE, on the parent's `devedor` property
 * (see HasExactlyOneDocument), because it is part of the schema's `oneOf`.
 */
export class DevedorDto {
  @OptionalField()
  @IsString()
  @Matches(CONTRACT_PATTERNS.cpf)
  cpf?: string;

  @OptionalField()
  @IsString()
  @Matches(CONTRACT_PATTERNS.cnpj)
  cnpj?: string;

  @IsDefined()
  @IsString()
  @MaxLength(200)
  nome!: string;

  @OptionalField()
  @IsString()
  email?: string;

  @OptionalField()
  @IsString()
  @MaxLength(200)
  logradouro?: string;

  @OptionalField()
  @IsString()
  @MaxLength(200)
  cidade?: string;

  @OptionalField()
  @IsString()
  @MaxLength(2)
  uf?: string;

  @OptionalField()
  @IsString()
  @MaxLength(8)
  cep?: string;
}

/**
 * `loc` (schema PayloadLocationCob). `id` is int64 on the wire; we accept only safe integers so
 * no precision is lost. The schema lists `tipoCob` as required without defining it and the
 * official example omits it: accepted when present, never required, and then only `cobv`: a due
 * charge's location is a `cobv` one (a `cob` was linked with it ignored, found by an audit).
 */
export class LocDto {
  @IsDefined()
  @IsInt()
  @Min(Number.MIN_SAFE_INTEGER)
  @Max(Number.MAX_SAFE_INTEGER)
  id!: number;

  @OptionalField()
  @IsIn(['cobv'])
  tipoCob?: 'cobv';
}

/** One `infoAdicionais` item (schema CobBase). */
export class InfoAdicionalDto {
  @IsDefined()
  @IsString()
  @MaxLength(50)
  nome!: string;

  @IsDefined()
  @IsString()
  @MaxLength(200)
  valor!: string;
}
