/* make bench-serve's fairness client: CONNECTIONS keep-alive connections, each asking for one
 * announcement after another, every one a distinct amount (never made before), for SECONDS; and
 * beside them one more connection asking /healthz every 50 ms. Counts what each connection got and
 * how long each request waited for the first byte of its answer (from the connect for a
 * connection's first request: waiting to be accepted counts), requests still unanswered at the end
 * included with the wait so far.
 *
 *   serve-fairness-client PORT CONNECTIONS SECONDS FORMAT [PREFIX]
 *
 * Prints one line of key=value figures. Built by Tests/Scripts/bench-helpers.sh; not part of
 * soundset. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

enum { buffer_size = 1 << 20 };

struct connection {
    int fd;
    int connecting;
    int waiting;        /* a request sent, its answer not read whole */
    int first_byte;     /* its first byte arrived */
    double sent;        /* when the request was sent (the connect, for the first) */
    long answers;
    long errors;
    size_t have;
    char *buffer;
    char request[256];
    size_t request_length, request_sent;
};

static int port;
static long amount_counter;
static const char *format, *prefix;
static double *waits;
static size_t wait_count, wait_capacity;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static void record(double wait) {
    if (wait_count == wait_capacity) {
        wait_capacity = wait_capacity ? wait_capacity * 2 : 4096;
        waits = realloc(waits, wait_capacity * sizeof *waits);
    }
    waits[wait_count++] = wait;
}

static int open_socket(void) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons(port)};
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&address, sizeof address) != 0 && errno != EINPROGRESS) {
        close(fd);
        return -1;
    }
    return fd;
}

/* Queues the next request: a distinct amount, or the health check. */
static void next_request(struct connection *c, int health) {
    if (health) {
        c->request_length = snprintf(c->request, sizeof c->request, "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    } else {
        long n = amount_counter++;
        c->request_length = snprintf(
            c->request, sizeof c->request, "GET %s%ld.%02ld.%s HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", prefix, 10000 + (n / 100) % 90000000, n % 100, format);
    }
    c->request_sent = 0;
    c->waiting = 1;
    c->first_byte = 0;
    c->have = 0;
}

static void reconnect(struct connection *c) {
    if (c->fd >= 0) close(c->fd);
    c->fd = open_socket();
    c->connecting = 1;
    c->sent = now();
}

/* Whether the buffer holds a whole response; its length in *length. */
static int whole_response(struct connection *c, size_t *length) {
    c->buffer[c->have] = 0;
    char *end = strstr(c->buffer, "\r\n\r\n");
    if (!end) return 0;
    size_t head = end + 4 - c->buffer;
    long body = 0;
    for (char *line = strstr(c->buffer, "\r\n"); line && line < end; line = strstr(line + 2, "\r\n")) {
        if (strncasecmp(line + 2, "Content-Length:", 15) == 0) body = atol(line + 17);
    }
    if (c->have < head + body) return 0;
    *length = head + body;
    return 1;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    if (argc < 5) {
        fprintf(stderr, "usage: serve-fairness-client PORT CONNECTIONS SECONDS FORMAT [PREFIX]\n");
        return 64;
    }
    port = atoi(argv[1]);
    int count = atoi(argv[2]);
    double seconds = atof(argv[3]);
    format = argv[4];
    prefix = argc > 5 ? argv[5] : "/v1/announcements/";
    amount_counter = (long)getpid() * 100000 % 800000000;
    int total = count + 1; /* the last one asks /healthz */
    struct connection *connections = calloc(total, sizeof *connections);
    struct pollfd *polls = calloc(total, sizeof *polls);
    double *health = calloc(1 << 16, sizeof *health);
    size_t health_count = 0;
    double next_health = 0, start = now(), end = start + seconds;
    for (int i = 0; i < total; i++) {
        connections[i].fd = -1;
        connections[i].buffer = malloc(buffer_size + 1);
        reconnect(&connections[i]);
        if (i < count) next_request(&connections[i], 0);
    }
    while (now() < end) {
        double t = now();
        struct connection *h = &connections[count];
        if (!h->waiting && !h->connecting && t >= next_health && health_count < (1 << 16)) {
            next_request(h, 1);
            h->sent = t;
            next_health = t + 0.05;
        }
        for (int i = 0; i < total; i++) {
            struct connection *c = &connections[i];
            polls[i].fd = c->fd;
            polls[i].events = (c->connecting || (c->waiting && c->request_sent < c->request_length) ? POLLOUT : 0) | POLLIN;
        }
        if (poll(polls, total, 5) < 0) continue;
        t = now();
        for (int i = 0; i < total; i++) {
            struct connection *c = &connections[i];
            if (!polls[i].revents) continue;
            if (c->connecting && (polls[i].revents & POLLOUT)) {
                int error = 0;
                socklen_t size = sizeof error;
                getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &error, &size);
                if (error) {
                    c->errors++;
                    reconnect(c);
                    continue;
                }
                c->connecting = 0;
            }
            if (!c->connecting && c->waiting && c->request_sent < c->request_length && (polls[i].revents & POLLOUT)) {
                ssize_t n = send(c->fd, c->request + c->request_sent, c->request_length - c->request_sent, MSG_NOSIGNAL);
                if (n > 0) {
                    if (c->request_sent == 0 && c->answers + c->errors > 0 && i < count) c->sent = t;
                    c->request_sent += n;
                }
            }
            if (polls[i].revents & (POLLIN | POLLHUP | POLLERR)) {
                ssize_t n = recv(c->fd, c->buffer + c->have, buffer_size - c->have, 0);
                if (n <= 0) {
                    if (n < 0 && (errno == EAGAIN || errno == EINTR)) continue;
                    /* closed by the server: the request is lost, asked again on a new connection */
                    c->errors++;
                    reconnect(c);
                    if (c->waiting) next_request(c, i == count);
                    continue;
                }
                if (!c->first_byte) {
                    c->first_byte = 1;
                    if (i < count) record(t - c->sent);
                }
                c->have += n;
                size_t length;
                if (whole_response(c, &length)) {
                    if (i == count) {
                        health[health_count++] = t - c->sent;
                        c->waiting = 0;
                    } else {
                        c->answers++;
                        next_request(c, 0);
                        c->sent = t;
                    }
                    c->have = 0;
                }
            }
        }
    }
    /* Requests still unanswered count with their wait so far. */
    double t = now();
    long unanswered = 0, never = 0, answers = 0, errors = 0;
    long *per = calloc(count, sizeof *per);
    for (int i = 0; i < count; i++) {
        struct connection *c = &connections[i];
        if (c->waiting && !c->first_byte) {
            record(t - c->sent);
            unanswered++;
        }
        if (c->answers == 0) never++;
        answers += c->answers;
        errors += c->errors;
        per[i] = c->answers;
    }
    qsort(waits, wait_count, sizeof *waits, compare);
    qsort(health, health_count, sizeof *health, compare);
    long least = count ? per[0] : 0, most = 0;
    for (int i = 0; i < count; i++) {
        if (per[i] < least) least = per[i];
        if (per[i] > most) most = per[i];
    }
    printf(
        "answers=%ld rps=%.1f connections=%d never_answered=%ld least=%ld most=%ld unanswered_at_end=%ld errors=%ld "
        "first_byte_p50_ms=%.1f first_byte_p99_ms=%.1f first_byte_max_ms=%.1f health_count=%zu health_p50_ms=%.2f health_p99_ms=%.2f health_max_ms=%.2f\n",
        answers, answers / seconds, count, never, least, most, unanswered, errors, wait_count ? waits[wait_count / 2] * 1000 : 0,
        wait_count ? waits[(size_t)(wait_count * 0.99)] * 1000 : 0, wait_count ? waits[wait_count - 1] * 1000 : 0, health_count,
        health_count ? health[health_count / 2] * 1000 : 0, health_count ? health[(size_t)(health_count * 0.99)] * 1000 : 0,
        health_count ? health[health_count - 1] * 1000 : 0);
    return 0;
}
