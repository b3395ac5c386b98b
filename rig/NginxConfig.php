<?php

declare(strict_types=1);

namespace WarmHttp\Rig;

/**
 * Renders the private nginx.conf: three listeners (TLS 1.3 + h2, TLS HTTP/1.1, plain HTTP/1.1)
 * serving the same endpoints, every path under one directory, and two TLS 1.3 + h2 listeners
 * asking for a client certificate signed by the rig's CA: one requires it (mtls), one takes a
 * request without (mtls_optional); the access log names the certificate each request came with.
 *
 * @internal test/bench tooling
 */
final class NginxConfig
{
    public const ECHO_MODULE = '/usr/lib/nginx/modules/ngx_http_echo_module.so';

    /** Highest N served by /redirect/N. */
    public const MAX_REDIRECTS = 100;

    /**
     * @param array{h2: int, h1tls: int, plain: int, mtls: int, mtls_optional: int} $ports
     */
    public function __construct(
        private readonly string $dir,
        private readonly array $ports,
        private readonly Certificate $certificate,
        private readonly float $keepaliveTimeoutSeconds,
    ) {}

    public function render(): string
    {
        return implode("\n", [
            'load_module ' . self::ECHO_MODULE . ';',
            \function_exists('posix_geteuid') && posix_geteuid() === 0 ? 'user root;' : '',
            'worker_processes 1;',
            "pid {$this->dir}/nginx.pid;",
            "error_log {$this->dir}/error.log warn;",
            'events { worker_connections 4096; }',
            'http {',
            $this->httpSettings(),
            $this->maps(),
            $this->server($this->ports['h2'], 'ssl http2'),
            $this->server($this->ports['h1tls'], 'ssl'),
            $this->server($this->ports['plain'], ''),
            $this->server($this->ports['mtls'], 'ssl http2', 'ssl_verify_client on;'),
            $this->server($this->ports['mtls_optional'], 'ssl http2', 'ssl_verify_client optional;'),
            '}',
            '',
        ]);
    }

    public function locations(): string
    {
        $bytes = $this->dir . '/bytes/';
        $json = $this->dir . '/json/';
        $encoded = $this->dir . '/encoded/';

        return <<<CONF
            location = /fast { return 200 "ok"; }
            location = /slow { echo_sleep \$rig_slow_query_s; echo -n "ok"; }
            location = /drip { echo -n "first,"; echo_flush; echo_sleep 0.5; echo -n "second"; }
            location = /pause { echo -n "first,"; echo_flush; echo_sleep \$rig_slow_query_s; echo -n "second"; }
            location ~ ^/slow/[0-9]+$ { echo_sleep \$rig_slow_path_s; echo -n "ok"; }
            location /echo/ { echo -n \$request_uri; }
            location = /echo-body { client_body_in_single_buffer on; echo_read_request_body; echo_request_body; }
            location /bytes/ { alias {$bytes}; }
            location /json/ { alias {$json}; default_type application/json; gzip_static on; gzip_vary on; }
            location /gzip/ { alias {$encoded}; default_type application/json; add_header Content-Encoding gzip; }
            location /zstd/ { alias {$encoded}; default_type application/json; add_header Content-Encoding zstd; }
            location /br/ { alias {$encoded}; default_type application/json; add_header Content-Encoding br; }
            location /deflate/ { alias {$encoded}; default_type application/json; add_header Content-Encoding deflate; }
            location = /whoami { return 200 "\$ssl_client_verify \$ssl_client_s_dn"; }
            location ~ ^/redirect/[0-9]+$ { return 302 \$rig_redirect_next; }
            location = /redirect-to { return 302 \$arg_url; }
            location = /headers { echo -n \$rig_headers; }
            {$this->statusLocations()}
            CONF;
    }

    private function httpSettings(): string
    {
        $d = $this->dir;
        $keepaliveMs = (int) round($this->keepaliveTimeoutSeconds * 1000);
        $temp = implode(' ', array_map(
            static fn(string $kind): string => "{$kind}_temp_path {$d}/tmp/{$kind};",
            ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'],
        ));

        return <<<CONF
            {$temp}
            log_format rig escape=json '{"connection":"\$connection","requests":"\$connection_requests",'
                '"request":"\$request","method":"\$request_method","uri":"\$request_uri","status":"\$status",'
                '"reused":"\$ssl_session_reused","port":"\$server_port","time":"\$request_time",'
                '"protocol":"\$server_protocol","bytes":"\$body_bytes_sent","client":"\$ssl_client_verify \$ssl_client_s_dn",'
                '"accept_encoding":"\$http_accept_encoding"}';
            access_log {$d}/access.log rig;
            default_type application/octet-stream;
            sendfile on;
            tcp_nodelay on;
            keepalive_requests 10000;
            keepalive_timeout {$keepaliveMs}ms;
            http2_max_concurrent_streams 128;
            absolute_redirect off;
            client_max_body_size 0;
            client_body_buffer_size 16m;
            ssl_certificate {$this->certificate->certFile()};
            ssl_certificate_key {$this->certificate->keyFile()};
            ssl_protocols TLSv1.3;
            ssl_session_cache shared:rig:1m;
            ssl_session_tickets on;
            ssl_client_certificate {$this->certificate->caFile()};
            CONF;
    }

    private function maps(): string
    {
        $redirects = ['    default /fast;'];
        for ($n = 2; $n <= self::MAX_REDIRECTS; ++$n) {
            $redirects[] = \sprintf('    /redirect/%d /redirect/%d;', $n, $n - 1);
        }

        // echo_sleep takes (fractional) seconds: turn milliseconds into "s.mmm" with regexes.
        return self::msMap('$arg_ms', '$rig_slow_query_s', '^')
            . self::msMap('$uri', '$rig_slow_path_s', '^/slow/')
            . "map \$uri \$rig_redirect_next {\n" . implode("\n", $redirects) . "\n}\n"
            . self::headersMap();
    }

    /**
     * The echo module only sees the raw request head on HTTP/1.x; over h2 list a fixed set.
     */
    private static function headersMap(): string
    {
        $names = ['host', 'user-agent', 'accept', 'accept-encoding', 'accept-language', 'authorization',
            'content-type', 'content-length', 'cookie', 'connection', 'te', 'transfer-encoding', 'expect',
            'x-request-id', 'idempotency-key', 'traceparent', 'x-foo', 'x-test'];
        $lines = array_map(
            static fn(string $name): string => $name . ': $http_' . str_replace('-', '_', $name) . '\\r\\n',
            $names,
        );

        return "map \$server_protocol \$rig_headers {\n    default \$echo_client_request_headers;\n"
            . '    "HTTP/2.0" "$request\\r\\n' . implode('', $lines) . "\\r\\n\";\n}\n";
    }

    private static function msMap(string $source, string $target, string $prefix): string
    {
        return <<<CONF
            map {$source} {$target} {
                default 0;
                "~{$prefix}0*([0-9]+)([0-9]{3})$" "\$1.\$2";
                "~{$prefix}0*([0-9]{3})$" "0.\$1";
                "~{$prefix}0*([0-9]{2})$" "0.0\$1";
                "~{$prefix}0*([0-9])$" "0.00\$1";
            }

            CONF;
    }

    private function server(int $port, string $flags, string $settings = ''): string
    {
        return \sprintf("server {\n    listen 127.0.0.1:%d %s;\n    %s\n    include %s/locations.conf;\n}", $port, $flags, $settings, $this->dir);
    }

    private function statusLocations(): string
    {
        $lines = [];
        for ($code = 200; $code <= 599; ++$code) {
            // For 301/302/303/307/308 nginx treats the text as the Location.
            $text = \in_array($code, [301, 302, 303, 307, 308], true) ? '/fast' : 'status ' . $code;
            $lines[] = \sprintf('location = /status/%d { return %d "%s"; }', $code, $code, $text);
        }

        return implode("\n", $lines);
    }
}
