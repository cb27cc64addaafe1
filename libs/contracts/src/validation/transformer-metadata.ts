// class-transformer keeps `@Type` / `@Transform` / `@Expose` / `@Exclude` in a storage it does not
// export from its entry point; the fast path reads it from the same CommonJS module that
// class-transformer itself uses (one singleton), pinned by the exact version in package.json.
import { TransformationType, type ClassTransformOptions, type TransformFnParams, type TypeMetadata } from 'class-transformer';
import type { MetadataStorage } from 'class-transformer/types/MetadataStorage';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const storage = (require('class-transformer/cjs/storage') as { defaultMetadataStorage: MetadataStorage }).defaultMetadataStorage;

export type { TypeMetadata };
export type TransformFn = (params: TransformFnParams) => unknown;
type Target = new () => object;

/** The options object plainToInstance hands to `@Transform` functions (its defaults, no overrides). */
export const PLAIN_TO_INSTANCE_OPTIONS: Readonly<ClassTransformOptions> = Object.freeze({
  enableCircularCheck: false,
  enableImplicitConversion: false,
  excludeExtraneousValues: false,
  excludePrefixes: undefined,
  exposeDefaultValues: false,
  exposeUnsetFields: true,
  groups: undefined,
  ignoreDecorators: false,
  strategy: undefined,
  targetMaps: undefined,
  version: undefined,
});

export const transformerMetadata = {
  /** True when plainToInstance copies every sent key as is (no expose/exclude rules on the class). */
  plainByDefault(dto: Target): boolean {
    return storage.getStrategy(dto) === 'none' && storage.getExposedMetadatas(dto).length === 0 && storage.getExcludedMetadatas(dto).length === 0;
  },

  typeOf(dto: Target, name: string): TypeMetadata | undefined {
    return storage.findTypeMetadata(dto, name) ?? undefined;
  },

  /** The `@Transform` functions plainToInstance applies to member `name`, in its order. */
  transformsOf(dto: Target, name: string): TransformFn[] {
    return storage
      .findTransformMetadatas(dto, name, TransformationType.PLAIN_TO_CLASS)
      .filter((m) => !m.options || !m.options.groups || !m.options.groups.length)
      .map((m) => m.transformFn);
  },
};
