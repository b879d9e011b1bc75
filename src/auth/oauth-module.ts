/**
 * `OAuthResourceModule.configure({ resource, authorizationServers, … })`: the MCP server becomes an
 * OAuth 2.1 protected resource (issue 17). Over HTTP every request needs a valid bearer token for
 * `resource`; the metadata document (RFC 9728) is served; refusals carry the challenge clients
 * discover the authorization server from. Bad options fail here, at start-up, naming each problem.
 */
import type { InjectionToken } from 'tsyringe';
import type { ConfigModule } from '../config/modules';
import { validateOptions } from '../config/validate-options';
import { RESOURCE_SERVER } from '../server/core/resource-server';
import { IntrospectionOptions, oauthOptionProblems, OAuthResourceOptions } from './oauth-options';
import { OAuthResource } from './oauth-resource';

export const OAUTH_RESOURCE_OPTIONS: InjectionToken<OAuthResourceOptions> = Symbol.for(
  'onemodelcontext:oauth-resource-options',
);

/** What `configure` takes: `resource` and `authorizationServers`, the rest optional. */
export type OAuthResourceInit = Partial<Omit<OAuthResourceOptions, 'introspection'>> &
  Pick<OAuthResourceOptions, 'resource' | 'authorizationServers'> & {
    introspection?: Partial<IntrospectionOptions> &
      Pick<IntrospectionOptions, 'endpoint' | 'clientId' | 'clientSecret'>;
  };

export class OAuthResourceModule {
  static configure(options: OAuthResourceInit): ConfigModule<OAuthResourceOptions> {
    const validated = validateOptions(OAuthResourceOptions, options, {
      label: 'OAuthResourceModule',
      nested: { introspection: IntrospectionOptions },
      checks: oauthOptionProblems,
    });
    const resource = new OAuthResource(validated);
    return Object.freeze({
      token: OAUTH_RESOURCE_OPTIONS,
      options: validated,
      register: (container) => {
        container.register(OAUTH_RESOURCE_OPTIONS, { useValue: validated });
        container.register(RESOURCE_SERVER, { useValue: resource });
      },
    } satisfies ConfigModule<OAuthResourceOptions>);
  }
}
