/*
 * The kernel's floor under `bench:service`: what a real-time session's socket traffic costs on
 * loopback when nothing but the system calls runs. Built and driven by socket-floor.ts.
 *
 *   socket-floor server PORT                    accept, read, write one frame per FRAME_IN bytes read
 *   socket-floor client PORT SESSIONS SECONDS   SESSIONS sockets, CHUNK bytes each per 20 ms
 *
 * The traffic is the bench's: each session sends a 20 ms audio message (CHUNK bytes, framing
 * included) every 20 ms and receives one animation message (FRAME bytes) per two of them. The
 * client paces every session from one 5 ms timer (a quarter of them per tick), as the bench
 * client does with its single pacing timer; both sides use epoll, non-blocking sockets, one
 * read per readable event until EAGAIN and one write per message — the least a server in any
 * language does for this traffic.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

enum { CHUNK = 680, FRAME = 260, FRAME_IN = 2 * CHUNK, MAX_EVENTS = 256, TICK_MS = 5 };

static void die(const char *what) {
  perror(what);
  exit(1);
}

static void nodelay(int fd) {
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

_Noreturn static void server(int port) {
  int lfd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
  int one = 1;
  setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(port)};
  inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
  if (bind(lfd, (struct sockaddr *)&a, sizeof a) < 0) die("bind");
  if (listen(lfd, 4096) < 0) die("listen");
  int ep = epoll_create1(0);
  struct epoll_event ev = {.events = EPOLLIN, .data.u64 = (uint64_t)lfd << 32};
  epoll_ctl(ep, EPOLL_CTL_ADD, lfd, &ev);
  printf("listening\n");
  fflush(stdout);
  /* Bytes received toward the next frame, per descriptor. */
  static unsigned pending[65536];
  static char buf[65536], frame[FRAME];
  struct epoll_event events[MAX_EVENTS];
  for (;;) {
    int n = epoll_wait(ep, events, MAX_EVENTS, -1);
    for (int i = 0; i < n; i++) {
      int fd = (int)(events[i].data.u64 >> 32);
      if (fd == lfd) {
        int c;
        while ((c = accept4(lfd, NULL, NULL, SOCK_NONBLOCK)) >= 0) {
          nodelay(c);
          pending[c] = 0;
          struct epoll_event ce = {.events = EPOLLIN, .data.u64 = (uint64_t)c << 32};
          epoll_ctl(ep, EPOLL_CTL_ADD, c, &ce);
        }
        continue;
      }
      for (;;) {
        ssize_t r = read(fd, buf, sizeof buf);
        if (r > 0) {
          pending[fd] += (unsigned)r;
          while (pending[fd] >= FRAME_IN) {
            pending[fd] -= FRAME_IN;
            if (write(fd, frame, FRAME) < 0 && errno != EAGAIN) break;
          }
          if ((size_t)r < sizeof buf) break;
          continue;
        }
        if (r == 0 || errno != EAGAIN) close(fd);
        break;
      }
    }
  }
}

static int client(int port, int sessions, int seconds) {
  int *fds = calloc((size_t)sessions, sizeof *fds);
  struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(port)};
  inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
  int ep = epoll_create1(0);
  for (int s = 0; s < sessions; s++) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (connect(fd, (struct sockaddr *)&a, sizeof a) < 0) die("connect");
    nodelay(fd);
    if (fcntl(fd, F_SETFL, O_NONBLOCK) < 0) die("nonblock");
    fds[s] = fd;
    struct epoll_event ev = {.events = EPOLLIN, .data.fd = fd};
    epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
  }
  int tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK);
  struct itimerspec it = {.it_interval = {0, TICK_MS * 1000000L}, .it_value = {0, TICK_MS * 1000000L}};
  timerfd_settime(tfd, 0, &it, NULL);
  struct epoll_event tev = {.events = EPOLLIN, .data.fd = tfd};
  epoll_ctl(ep, EPOLL_CTL_ADD, tfd, &tev);
  printf("connected\n");
  fflush(stdout);
  static char chunk[CHUNK], buf[65536];
  long ticks = 0, received = 0, last = (long)seconds * 1000 / TICK_MS;
  const int slots = 20 / TICK_MS;
  struct epoll_event events[MAX_EVENTS];
  while (ticks < last) {
    int n = epoll_wait(ep, events, MAX_EVENTS, -1);
    for (int i = 0; i < n; i++) {
      int fd = events[i].data.fd;
      if (fd == tfd) {
        uint64_t expired = 0;
        if (read(tfd, &expired, sizeof expired) < 0) continue;
        /* A late tick still sends every slot it missed, as the bench catches up. */
        for (uint64_t k = 0; k < expired; k++, ticks++)
          for (int s = (int)(ticks % slots); s < sessions; s += slots) (void)!write(fds[s], chunk, CHUNK);
        continue;
      }
      ssize_t r;
      while ((r = read(fd, buf, sizeof buf)) > 0) {
        received += r;
        if ((size_t)r < sizeof buf) break;
      }
    }
  }
  printf("frames %ld\n", received / FRAME);
  return 0;
}

int main(int argc, char **argv) {
  if (argc >= 3 && strcmp(argv[1], "server") == 0) server(atoi(argv[2]));
  if (argc >= 5 && strcmp(argv[1], "client") == 0) return client(atoi(argv[2]), atoi(argv[3]), atoi(argv[4]));
  fprintf(stderr, "usage: socket-floor server PORT | socket-floor client PORT SESSIONS SECONDS\n");
  return 2;
}
