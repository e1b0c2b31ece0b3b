/* make bench's two reference servers for soundset serve (and one client of it), over the same libmicrohttpd, the same
 * thread pool (one thread per core) and the same connection limit:
 *
 *   serve-bench-server ceiling FILE        answers every request with FILE's bytes, read once:
 *                                          what the HTTP layer alone can do (the ceiling); a
 *                                          request with If-None-Match gets a 304 (FILE's length,
 *                                          no body), HEAD the headers alone, as soundset serve
 *   serve-bench-server idle PORT COUNT     a client, not a server: opens COUNT keep-alive
 *                                          connections to 127.0.0.1:PORT, one GET /healthz
 *                                          answered on each, leaves them idle, then times a new
 *                                          connection's GET /healthz: prints its status and ms
 *   serve-bench-server render SOUNDSET DIR answers /x/AMOUNT.caf by running SOUNDSET render AMOUNT
 *                                          --output DIR --out TMP for each request and sending the
 *                                          file: the process-per-request baseline a team would script
 *
 * Prints "listening on http://127.0.0.1:PORT" and serves until SIGTERM or SIGINT.
 * Built by Tests/Scripts/bench-serve.sh; not part of soundset. */
#define _GNU_SOURCE /* strcasestr */
#include <arpa/inet.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;
static char *body;
static size_t body_size;
static const char *soundset, *set_dir;
static atomic_int counter;

static char *read_file(const char *path, size_t *size) {
    FILE *file = fopen(path, "rb");
    if (!file) return NULL;
    fseek(file, 0, SEEK_END);
    long length = ftell(file);
    fseek(file, 0, SEEK_SET);
    char *bytes = malloc(length > 0 ? length : 1);
    *size = fread(bytes, 1, length, file);
    fclose(file);
    return bytes;
}

static enum MHD_Result answer(void *cls, struct MHD_Connection *connection, const char *url, const char *method,
                              const char *version, const char *upload, size_t *upload_size, void **context) {
    (void)cls; (void)method; (void)version; (void)upload; (void)upload_size;
    if (*context == NULL) { *context = (void *)1; return MHD_YES; }
    struct MHD_Response *response;
    if (body) {
        response = MHD_create_response_from_buffer(body_size, body, MHD_RESPMEM_PERSISTENT);
        MHD_add_response_header(response, "Content-Type", "audio/wav");
        if (MHD_lookup_connection_value(connection, MHD_HEADER_KIND, "If-None-Match")) {
            enum MHD_Result result = MHD_queue_response(connection, 304, response);
            MHD_destroy_response(response);
            return result;
        }
    } else {
        /* The amount is the last segment without its extension. */
        const char *slash = strrchr(url, '/');
        char amount[64];
        snprintf(amount, sizeof amount, "%s", slash ? slash + 1 : url);
        char *dot = strrchr(amount, '.');
        if (dot) *dot = 0;
        char out[256];
        snprintf(out, sizeof out, "/tmp/serve-bench-%d-%d.caf", (int)getpid(), atomic_fetch_add(&counter, 1));
        char *argv[] = {(char *)soundset, "render", amount, "--output", (char *)set_dir, "--out", out, NULL};
        pid_t pid;
        int status = -1;
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", 1, 0);
        if (posix_spawn(&pid, soundset, &actions, NULL, argv, environ) == 0) waitpid(pid, &status, 0);
        posix_spawn_file_actions_destroy(&actions);
        size_t size = 0;
        char *bytes = status == 0 ? read_file(out, &size) : NULL;
        unlink(out);
        if (!bytes) {
            response = MHD_create_response_from_buffer(0, "", MHD_RESPMEM_PERSISTENT);
            enum MHD_Result result = MHD_queue_response(connection, 500, response);
            MHD_destroy_response(response);
            return result;
        }
        response = MHD_create_response_from_buffer(size, bytes, MHD_RESPMEM_MUST_FREE);
        MHD_add_response_header(response, "Content-Type", "audio/x-caf");
    }
    enum MHD_Result result = MHD_queue_response(connection, 200, response);
    MHD_destroy_response(response);
    return result;
}

/* One GET /healthz on `fd`, its response read whole (by Content-Length): the status, or 0. */
static int get_health(int fd) {
    const char request[] = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
    if (send(fd, request, sizeof request - 1, MSG_NOSIGNAL) != (ssize_t)(sizeof request - 1)) return 0;
    char buffer[4096];
    size_t have = 0;
    for (;;) {
        ssize_t count = recv(fd, buffer + have, sizeof buffer - 1 - have, 0);
        if (count <= 0) return 0;
        have += (size_t)count;
        buffer[have] = 0;
        char *end = strstr(buffer, "\r\n\r\n");
        if (!end) continue;
        char *length = strcasestr(buffer, "\r\nContent-Length:");
        size_t body = length && length < end ? strtoul(length + 17, NULL, 10) : 0;
        if (have >= (size_t)(end + 4 - buffer) + body) return atoi(buffer + 9);
    }
}

static int connect_to(int port) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    struct timeval wait = {.tv_sec = 10};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, sizeof wait);
    if (connect(fd, (struct sockaddr *)&address, sizeof address) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

static int idle_probe(int port, int count) {
    int *idle = calloc((size_t)count, sizeof *idle);
    for (int i = 0; i < count; i++) {
        idle[i] = connect_to(port);
        /* Past the limit an idle one is closed to make room: that is the point, not a failure. */
        if (idle[i] >= 0) get_health(idle[i]);
    }
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    int fd = connect_to(port);
    int status = fd >= 0 ? get_health(fd) : 0;
    clock_gettime(CLOCK_MONOTONIC, &end);
    printf("%d %.2f\n", status, (end.tv_sec - start.tv_sec) * 1e3 + (end.tv_nsec - start.tv_nsec) / 1e6);
    return status == 200 ? 0 : 1;
}

int main(int argc, char **argv) {
    if (argc == 4 && strcmp(argv[1], "idle") == 0) return idle_probe(atoi(argv[2]), atoi(argv[3]));
    if (argc == 3 && strcmp(argv[1], "ceiling") == 0) {
        body = read_file(argv[2], &body_size);
        if (!body) { fprintf(stderr, "cannot read %s\n", argv[2]); return 1; }
    } else if (argc == 4 && strcmp(argv[1], "render") == 0) {
        soundset = argv[2];
        set_dir = argv[3];
    } else {
        fprintf(stderr, "usage: %s ceiling FILE | render SOUNDSET DIR | idle PORT COUNT\n", argv[0]);
        return 64;
    }
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGTERM);
    sigaddset(&signals, SIGINT);
    sigprocmask(SIG_BLOCK, &signals, NULL);
    unsigned int threads = (unsigned int)sysconf(_SC_NPROCESSORS_ONLN);
    struct sockaddr_in loopback = {.sin_family = AF_INET, .sin_port = 0};
    loopback.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    struct MHD_Daemon *daemon = MHD_start_daemon(
        MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_AUTO, 0, NULL, NULL, answer, NULL,
        MHD_OPTION_THREAD_POOL_SIZE, threads, MHD_OPTION_CONNECTION_LIMIT, 1000u, MHD_OPTION_CONNECTION_TIMEOUT, 10u,
        MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&loopback, MHD_OPTION_END);
    if (!daemon) { fprintf(stderr, "cannot listen\n"); return 1; }
    printf("listening on http://127.0.0.1:%u\n", MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT)->port);
    fflush(stdout);
    int number;
    sigwait(&signals, &number);
    MHD_stop_daemon(daemon);
    return 0;
}
