// libmicrohttpd (0.9.73 or later), and the calls Swift cannot make itself: MHD_start_daemon,
// MHD_get_connection_info and MHD_get_daemon_info are variadic, so each is called here with its
// arguments fixed.
#ifndef SOUNDSET_CMICROHTTPD_SHIM_H
#define SOUNDSET_CMICROHTTPD_SHIM_H

#include <stdarg.h>
#include <stdint.h>
#include <stddef.h>
#include <string.h>
#include <strings.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <microhttpd.h>

/// The unescape callback's type (MHD_OPTION_UNESCAPE_CALLBACK has no typedef of its own).
typedef size_t (*soundset_mhd_unescape)(void *cls, struct MHD_Connection *connection, char *text);
/// The URI log callback's type (MHD_OPTION_URI_LOG_CALLBACK has no typedef of its own).
typedef void *(*soundset_mhd_uri_log)(void *cls, const char *uri, struct MHD_Connection *connection);

/// The length of the request target as received, NUL bytes in it included, from the access
/// handler's `url` and `version`. libmicrohttpd 0.9.75 hands the target over as a C string, so a
/// raw NUL in it (`GET /v1/plan/2\0.5 HTTP/1.1`) would cut it there; both pointers point into the
/// request line as received (parse_initial_message_line), the target running from `url` to the
/// space before `version`. The client controls everything but those positions. (The bytes after
/// a first NUL are as they came but for the library's query parsing, in place, over the whole
/// target: a `?`, `&` or `=` there may have become a NUL.) Other versions may keep them
/// elsewhere: there this is the C string's length.
static inline size_t soundset_mhd_target_length(const char *url, const char *version) {
    if (url == NULL) return 0;
#if MHD_VERSION == 0x00097500
    if (version != NULL && version > url) return (size_t)(version - url - 1);
#else
    (void)version;
#endif
    return strlen(url);
}

/// `MHD_get_connection_values`' iterator for `soundset_mhd_lengths_disagree`.
static inline enum MHD_Result soundset_mhd_length_seen(void *cls, enum MHD_ValueKind kind, const char *key, const char *value) {
    (void)kind;
    const char **first = (const char **)cls;
    if (key == NULL || value == NULL || strcasecmp(key, "Content-Length") != 0) return MHD_YES;
    if (*first == NULL) {
        *first = value;
        return MHD_YES;
    }
    if (strcmp(*first, value) == 0) return MHD_YES;
    *first = "";  // the mark of a disagreement: an empty value is refused by libmicrohttpd itself
    return MHD_NO;
}

/// Whether the request on `connection` has two Content-Length fields that disagree (libmicrohttpd
/// reads the first and ignores the others: behind a proxy that reads another, a smuggled request).
static inline int soundset_mhd_lengths_disagree(struct MHD_Connection *connection) {
    const char *first = NULL;
    MHD_get_connection_values(connection, MHD_HEADER_KIND, soundset_mhd_length_seen, (void *)&first);
    return first != NULL && first[0] == 0;
}

/// Starts a daemon listening on `address` with a pool of `threads` threads, at most `connections`
/// connections, an idle timeout of `timeout` seconds, and every callback given `cls`.
static inline struct MHD_Daemon *soundset_mhd_start(
    unsigned int flags, const struct sockaddr *address, unsigned int threads, unsigned int connections, unsigned int timeout,
    MHD_AccessHandlerCallback handler, soundset_mhd_uri_log uri_log, MHD_NotifyConnectionCallback notify,
    MHD_RequestCompletedCallback completed, soundset_mhd_unescape unescape, void *cls) {
    return MHD_start_daemon(
        flags, 0, NULL, NULL, handler, cls,
        MHD_OPTION_SOCK_ADDR, address,
        MHD_OPTION_THREAD_POOL_SIZE, threads,
        MHD_OPTION_CONNECTION_LIMIT, connections,
        MHD_OPTION_CONNECTION_TIMEOUT, timeout,
        MHD_OPTION_URI_LOG_CALLBACK, uri_log, cls,
        MHD_OPTION_NOTIFY_CONNECTION, notify, cls,
        MHD_OPTION_NOTIFY_COMPLETED, completed, cls,
        MHD_OPTION_UNESCAPE_CALLBACK, unescape, cls,
        MHD_OPTION_END);
}

/// The socket of `connection`, or -1.
static inline int soundset_mhd_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : (int)info->connect_fd;
}

/// The status of the response queued on `connection` (one libmicrohttpd queued itself, for a request
/// it refused), or 0.
static inline unsigned int soundset_mhd_connection_status(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_HTTP_STATUS);
    return info == NULL ? 0 : info->http_status;
}

/// A response of unknown length with no body, for a `HEAD` whose body is not made yet: HTTP/1.0's
/// way (MHD_RF_HTTP_1_0_COMPATIBLE_STRICT), no `Content-Length` and no chunked encoding (whose
/// last chunk libmicrohttpd 0.9.75 would send after the head), the connection closed after it.
static ssize_t soundset_mhd_no_body(void *cls, uint64_t position, char *buffer, size_t max) {
    (void)cls; (void)position; (void)buffer; (void)max;
    return MHD_CONTENT_READER_END_OF_STREAM;
}

static inline struct MHD_Response *soundset_mhd_unknown_length_response(void) {
    struct MHD_Response *response = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 1024, soundset_mhd_no_body, NULL, NULL);
    if (response != NULL) MHD_set_response_options(response, MHD_RF_HTTP_1_0_COMPATIBLE_STRICT, MHD_RO_END);
    return response;
}

/// What the system says of the TCP socket `fd` (Linux's `TCP_INFO`): the bytes received on it since
/// it was opened (`tcpi_bytes_received`, at offset 128 since Linux 4.1: that layout is the kernel's
/// ABI, and glibc's `struct tcp_info` stops short of it) and the milliseconds since data last came
/// (`tcpi_last_data_recv`, offset 52), each -1 where the system does not say. Returns 0, or -1.
static inline int soundset_tcp_received(int fd, long long *bytes, long long *milliseconds) {
    *bytes = -1;
    *milliseconds = -1;
#if defined(__linux__)
    unsigned char info[256];
    socklen_t size = sizeof info;
    if (getsockopt(fd, IPPROTO_TCP, 11 /* TCP_INFO */, info, &size) != 0) return -1;
    if (size >= 56) {
        unsigned int last;
        memcpy(&last, info + 52, sizeof last);
        *milliseconds = last;
    }
    if (size >= 136) {
        unsigned long long received;
        memcpy(&received, info + 128, sizeof received);
        *bytes = (long long)received;
    }
    return 0;
#else
    (void)fd;
    return -1;
#endif
}

/// The port `daemon` listens on (the one the system chose for port 0), or 0.
static inline uint16_t soundset_mhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

#endif
