<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Strategy;

/**
 * Drives a curl multi handle until every added transfer finished, the plain loop of
 * seeds/002 and seeds/003, and reports each finished handle's result code.
 *
 * @internal bench tooling
 */
final class MultiLoop
{
    /**
     * @return array<int, int> spl_object_id(handle) => CURLE_* result
     */
    public static function run(\CurlMultiHandle $multi): array
    {
        $results = [];
        do {
            $status = curl_multi_exec($multi, $active);
            while (false !== ($done = curl_multi_info_read($multi))) {
                if ($done['handle'] instanceof \CurlHandle && \is_int($done['result'])) {
                    $results[spl_object_id($done['handle'])] = $done['result'];
                }
            }
            if ($active > 0 && curl_multi_select($multi, 1.0) === -1) {
                usleep(1000);
            }
        } while ($active > 0 && $status === \CURLM_OK);

        return $results;
    }
}
