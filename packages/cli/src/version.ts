/** The version of @snowkey/cli, kept equal to package.json's by a test (the bin cannot read JSON in both ESM and CJS builds alike). */
export const VERSION = '0.1.0';
