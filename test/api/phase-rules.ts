// Rules of the Rules products' phases, shared by the HTTP and the SDK tests of the Rulesets API.

/** A rule each phase of the Rules products accepts, as a Terraform configuration would write it. */
export const RULE_OF_PHASE: Record<string, Record<string, unknown>> = {
  http_request_dynamic_redirect: {
    action: 'redirect',
    expression: 'http.host eq "old.example.com"',
    action_parameters: {
      from_value: {
        status_code: 301,
        target_url: { expression: 'concat("https://new.example.com", http.request.uri.path)' },
        preserve_query_string: true,
      },
    },
  },
  http_request_transform: {
    action: 'rewrite',
    expression: 'starts_with(http.request.uri.path, "/old/")',
    action_parameters: {
      uri: { path: { expression: 'regex_replace(http.request.uri.path, "^/old/", "/new/")' } },
      headers: { 'x-rewritten': { operation: 'set', value: '1' } },
    },
  },
  http_request_origin: {
    action: 'route',
    expression: 'starts_with(http.request.uri.path, "/api/")',
    action_parameters: { host_header: 'api.internal.example', origin: { port: 8443 } },
  },
  http_request_cache_settings: {
    action: 'set_cache_settings',
    expression: 'http.request.uri.path.extension eq "css"',
    action_parameters: {
      cache: true,
      edge_ttl: { mode: 'override_origin', default: 3600 },
      browser_ttl: { mode: 'respect_origin' },
    },
  },
  http_config_settings: {
    action: 'set_config',
    expression: 'starts_with(http.request.uri.path, "/admin")',
    action_parameters: { security_level: 'high', rocket_loader: false },
  },
  http_request_late_transform: {
    action: 'rewrite',
    expression: 'true',
    action_parameters: { headers: { 'x-country': { operation: 'set', expression: 'ip.src.country' } } },
  },
  http_custom_errors: {
    action: 'serve_error',
    expression: 'http.response.code eq 500',
    action_parameters: {
      content: '{"error": "try again"}',
      content_type: 'application/json',
      status_code: 503,
    },
  },
  http_response_headers_transform: {
    action: 'rewrite',
    expression: 'true',
    action_parameters: {
      headers: {
        'strict-transport-security': { operation: 'set', value: 'max-age=31536000' },
        'set-cookie': { operation: 'add', value: 'seen=1' },
        server: { operation: 'remove' },
      },
    },
  },
  http_response_compression: {
    action: 'compress_response',
    expression: 'http.response.content_type.media_type eq "text/html"',
    action_parameters: { algorithms: [{ name: 'brotli' }, { name: 'gzip' }] },
  },
  http_log_custom_fields: {
    action: 'log_custom_field',
    expression: 'true',
    action_parameters: { request_fields: [{ name: 'x-request-id' }], cookie_fields: [{ name: '__session' }] },
  },
};
