/** The injection token of the module's generator (an `IdGenerator`). */
export const SNOWKEY_GENERATOR: unique symbol = Symbol.for('@snowkey/nest:generator');

/** The generator options `forRoot` was given or `forRootAsync`'s factory returned. Internal. */
export const SNOWKEY_GENERATOR_OPTIONS: unique symbol = Symbol.for('@snowkey/nest:generator-options');
