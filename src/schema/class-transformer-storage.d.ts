// class-transformer ships no typings for its storage module; its metadata store is public but not re-exported.
declare module 'class-transformer/cjs/storage' {
  import type { MetadataStorage } from 'class-transformer/types/MetadataStorage';
  export const defaultMetadataStorage: MetadataStorage;
}
