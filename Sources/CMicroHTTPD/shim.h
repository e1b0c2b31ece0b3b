// libmicrohttpd (0.9.73 or later), and the calls Swift cannot make itself: MHD_start_daemon,
// MHD_get_connection_info and MHD_get_daemon_info are variadic, so each is called here with its
// arguments fixed.
#ifndef SOUNDSET_CMICROHTTPD_SHIM_H
#define SOUNDSET_CMICROHTTPD_SHIM_H

#include <stdarg.h>
#include <stdint.h>
#include <stddef.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

/// The unescape callback's type (MHD_OPTION_UNESCAPE_CALLBACK has no typedef of its own).
typedef size_t (*soundset_mhd_unescape)(void *cls, struct MHD_Connection *connection, char *text);
/// The URI log callback's type (MHD_OPTION_URI_LOG_CALLBACK has no typedef of its own).
typedef void *(*soundset_mhd_uri_log)(void *cls, const char *uri, struct MHD_Connection *connection);

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

/// The port `daemon` listens on (the one the system chose for port 0), or 0.
static inline uint16_t soundset_mhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

#endif
