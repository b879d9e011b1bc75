/** Metadata keys: namespaced global symbols so two copies of the package still agree. */
export const MetadataKeys = Object.freeze({
  tools: Symbol.for('onemodelcontext:tools'),
  prompts: Symbol.for('onemodelcontext:prompts'),
  resources: Symbol.for('onemodelcontext:resources'),
  resourceTemplates: Symbol.for('onemodelcontext:resource-templates'),
  completions: Symbol.for('onemodelcontext:completions'),
  guards: Symbol.for('onemodelcontext:guards'),
  interceptors: Symbol.for('onemodelcontext:interceptors'),
  filters: Symbol.for('onemodelcontext:filters'),
  scopes: Symbol.for('onemodelcontext:scopes'),
  skills: Symbol.for('onemodelcontext:skills'),
});
export type MetadataKey = (typeof MetadataKeys)[keyof typeof MetadataKeys];
