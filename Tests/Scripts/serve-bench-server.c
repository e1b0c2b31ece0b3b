/* make bench's two reference servers for soundset serve (and one client of it), over the same libmicrohttpd, the same
 * thread pool (one thread per core) and the same connection limit:
 *
 *   serve-bench-server ceiling FILE        answers every request with FILE's bytes, read once:
 *                                          what the HTTP layer alone can do (the ceiling); a
 *                                          request with If-None-Match gets a 304 (FILE's length,
 *                                          no body), HEAD the headers alone, as soundset serve
 *   serve-bench-server idle PORT COUNT     a client, not a server: opens COUNT keep-alive
 *                                          connections to 127.0.0.1:PORT, sends GET /healthz on
 *                                          each and reads the answers for up to 3 s (those past
 *                                          the limit may get none), leaves them open, then times a
 *                                          new connection's GET /healthz: prints its status, ms,
 *                                          and how many of the COUNT were answered
 *   serve-bench-server load PORT CONNECTIONS SECONDS METHOD PATH [HEADER]
 *                                          a client like wrk that knows a HEAD's and a 304's
 *                                          response has no body whatever its Content-Length
 *                                          (wrk waits for one): keep-alive connections over two
 *                                          threads, printing wrk's figures (Requests/sec, 50%, 99%)
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
#include <poll.h>
#include <pthread.h>
#include <sys/epoll.h>
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

static double since(struct timespec start);

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
    const char request[] = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
    struct pollfd *idle = calloc((size_t)count, sizeof *idle);
    for (int i = 0; i < count; i++) {
        idle[i].fd = connect_to(port);
        idle[i].events = POLLIN;
        if (idle[i].fd >= 0) send(idle[i].fd, request, sizeof request - 1, MSG_NOSIGNAL);
    }
    /* Each answer (a few hundred bytes) read in one go; past the limit a connection may get none, or
     * be closed to make room: that is the point, not a failure. */
    int answered = 0;
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    while (since(start) < 3 && answered < count) {
        if (poll(idle, (nfds_t)count, 100) <= 0) continue;
        for (int i = 0; i < count; i++) {
            if (!(idle[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            char buffer[4096];
            if (recv(idle[i].fd, buffer, sizeof buffer, MSG_DONTWAIT) > 0) answered++;
            idle[i].fd = -idle[i].fd - 1; /* polled no more, still open */
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &start);
    int fd = connect_to(port);
    struct timeval wait = {.tv_sec = 30};
    if (fd >= 0) setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, sizeof wait);
    int status = fd >= 0 ? get_health(fd) : 0;
    clock_gettime(CLOCK_MONOTONIC, &end);
    printf("%d %.2f %d\n", status, (end.tv_sec - start.tv_sec) * 1e3 + (end.tv_nsec - start.tv_nsec) / 1e6, answered);
    return status == 200 ? 0 : 1;
}

/* The load client: each thread drives its connections with epoll, one request at a time on each. */
struct load {
    int port, connections;
    double seconds;
    const char *request;
    size_t request_size;
    int head;
};
struct load_connection {
    int fd;
    char buffer[16384];
    size_t have;
    size_t skip; /* body bytes of the response still to come */
    int status;
    struct timespec sent;
};
struct load_result {
    long done, errors, failed;
    long *latency; /* a count per 10 us, up to 10 s */
};
#define LATENCY_BUCKETS 1000000

static double since(struct timespec start) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (now.tv_sec - start.tv_sec) + (now.tv_nsec - start.tv_nsec) / 1e9;
}

static int load_send(const struct load *load, struct load_connection *c) {
    clock_gettime(CLOCK_MONOTONIC, &c->sent);
    return send(c->fd, load->request, load->request_size, MSG_NOSIGNAL) == (ssize_t)load->request_size;
}

/* Reads a response's head at the buffer's start: 1 once it is whole (taken from the buffer, its
 * status in c->status, its body's length in c->skip), 0 while it is not. */
static int load_head(const struct load *load, struct load_connection *c) {
    c->buffer[c->have] = 0;
    char *end = strstr(c->buffer, "\r\n\r\n");
    if (!end) return 0;
    c->status = atoi(c->buffer + 9);
    c->skip = 0;
    if (!load->head && c->status != 304 && c->status != 204) {
        char *length = strcasestr(c->buffer, "\r\nContent-Length:");
        c->skip = length && length < end ? strtoul(length + 17, NULL, 10) : 0;
    }
    size_t head = (size_t)(end + 4 - c->buffer);
    memmove(c->buffer, c->buffer + head, c->have - head);
    c->have -= head;
    return 1;
}

static void *load_thread(void *argument) {
    void **pair = argument;
    const struct load *load = pair[0];
    struct load_result *result = pair[1];
    int count = (int)(long)pair[2];
    int poller = epoll_create1(0);
    struct load_connection *connections = calloc((size_t)count, sizeof *connections);
    for (int i = 0; i < count; i++) {
        connections[i].fd = connect_to(load->port);
        if (connections[i].fd < 0) { result->failed++; continue; }
        struct epoll_event event = {.events = EPOLLIN, .data.ptr = &connections[i]};
        epoll_ctl(poller, EPOLL_CTL_ADD, connections[i].fd, &event);
        if (!load_send(load, &connections[i])) result->errors++;
    }
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    struct epoll_event events[256];
    while (since(start) < load->seconds) {
        int ready = epoll_wait(poller, events, 256, 100);
        for (int i = 0; i < ready; i++) {
            struct load_connection *c = events[i].data.ptr;
            ssize_t got = recv(c->fd, c->buffer + c->have, sizeof c->buffer - 1 - c->have, 0);
            if (got <= 0) { /* closed: counted, and opened again */
                result->errors++;
                epoll_ctl(poller, EPOLL_CTL_DEL, c->fd, NULL);
                close(c->fd);
                c->have = c->skip = 0;
                c->status = 0;
                c->fd = connect_to(load->port);
                if (c->fd < 0) continue;
                struct epoll_event event = {.events = EPOLLIN, .data.ptr = c};
                epoll_ctl(poller, EPOLL_CTL_ADD, c->fd, &event);
                load_send(load, c);
                continue;
            }
            c->have += (size_t)got;
            if (c->status == 0 && !load_head(load, c)) {
                if (c->have >= sizeof c->buffer - 1) c->have = 0; /* a head this long is no answer */
                continue;
            }
            size_t body = c->skip < c->have ? c->skip : c->have;
            memmove(c->buffer, c->buffer + body, c->have - body);
            c->have -= body;
            c->skip -= body;
            if (c->skip > 0) continue;
            int status = c->status;
            c->status = 0;
            double seconds = since(c->sent);
            long bucket = (long)(seconds * 1e5);
            result->latency[bucket < LATENCY_BUCKETS ? bucket : LATENCY_BUCKETS - 1]++;
            result->done++;
            if (status >= 400) result->failed++;
            if (!load_send(load, c)) result->errors++;
        }
    }
    for (int i = 0; i < count; i++) if (connections[i].fd >= 0) close(connections[i].fd);
    free(connections);
    close(poller);
    return NULL;
}

static double load_percentile(long *latency, long total, double fraction) {
    long wanted = (long)(total * fraction), seen = 0;
    for (long i = 0; i < LATENCY_BUCKETS; i++) {
        seen += latency[i];
        if (seen > wanted) return (i + 0.5) / 100.0; /* ms */
    }
    return 0;
}

static int load_run(int argc, char **argv) {
    struct load load = {.port = atoi(argv[2]), .connections = atoi(argv[3]), .seconds = atof(argv[4])};
    load.head = strcmp(argv[5], "HEAD") == 0;
    char *request = malloc(4096);
    int size = snprintf(request, 4096, "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\n%s%s\r\n", argv[5], argv[6], argc > 7 ? argv[7] : "",
                        argc > 7 ? "\r\n" : "");
    load.request = request;
    load.request_size = (size_t)size;
    struct load_result results[2] = {{0}};
    pthread_t threads[2];
    void *pairs[2][3];
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (int t = 0; t < 2; t++) {
        results[t].latency = calloc(LATENCY_BUCKETS, sizeof(long));
        pairs[t][0] = &load;
        pairs[t][1] = &results[t];
        pairs[t][2] = (void *)(long)(load.connections / 2 + (t < load.connections % 2));
        pthread_create(&threads[t], NULL, load_thread, pairs[t]);
    }
    for (int t = 0; t < 2; t++) pthread_join(threads[t], NULL);
    double elapsed = since(start);
    long done = results[0].done + results[1].done, errors = results[0].errors + results[1].errors;
    long failed = results[0].failed + results[1].failed;
    for (long i = 0; i < LATENCY_BUCKETS; i++) results[0].latency[i] += results[1].latency[i];
    printf("  Latency Distribution\n     50%% %.2fms\n     99%% %.2fms\n", load_percentile(results[0].latency, done, 0.5),
           load_percentile(results[0].latency, done, 0.99));
    printf("  %ld requests in %.2fs\n", done, elapsed);
    if (errors) printf("  Socket errors: connect 0, read %ld, write 0, timeout 0\n", errors);
    if (failed) printf("  Non-2xx or 3xx responses: %ld\n", failed);
    printf("Requests/sec: %.2f\n", done / elapsed);
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 4 && strcmp(argv[1], "idle") == 0) return idle_probe(atoi(argv[2]), atoi(argv[3]));
    if ((argc == 7 || argc == 8) && strcmp(argv[1], "load") == 0) return load_run(argc, argv);
    if (argc == 3 && strcmp(argv[1], "ceiling") == 0) {
        body = read_file(argv[2], &body_size);
        if (!body) { fprintf(stderr, "cannot read %s\n", argv[2]); return 1; }
    } else if (argc == 4 && strcmp(argv[1], "render") == 0) {
        soundset = argv[2];
        set_dir = argv[3];
    } else {
        fprintf(stderr, "usage: %s ceiling FILE | render SOUNDSET DIR | idle PORT COUNT | load PORT CONNECTIONS SECONDS METHOD PATH [HEADER]\n",
                argv[0]);
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
