#ifndef CSYSTEMSHIMS_H
#define CSYSTEMSHIMS_H

#include <pthread.h>
#include <string.h>

// System calls and constants Swift cannot import directly: epoll, eventfd, accept4, and a few macros.
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

#ifdef __linux__
#include <sys/epoll.h>
#include <sys/eventfd.h>

static inline int CSystemShims_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

static inline int CSystemShims_epoll_ctl(int epfd, int op, int fd, uint32_t events, uint64_t data) {
    struct epoll_event event;
    event.events = events;
    event.data.u64 = data;
    return epoll_ctl(epfd, op, fd, &event);
}

/// Waits for events and copies them into two parallel arrays, so Swift never sees the packed `epoll_event`.
static inline int CSystemShims_epoll_wait(int epfd, uint32_t *events, uint64_t *data, int max, int timeout) {
    struct epoll_event buffer[256];
    if (max > 256) max = 256;
    int count = epoll_wait(epfd, buffer, max, timeout);
    for (int i = 0; i < count; i++) {
        events[i] = buffer[i].events;
        data[i] = buffer[i].data.u64;
    }
    return count;
}

static inline int CSystemShims_eventfd(void) { return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK); }

static const uint32_t CSystemShims_EPOLLIN = EPOLLIN;
static const uint32_t CSystemShims_EPOLLOUT = EPOLLOUT;
static const uint32_t CSystemShims_EPOLLERR = EPOLLERR;
static const uint32_t CSystemShims_EPOLLHUP = EPOLLHUP;
static const uint32_t CSystemShims_EPOLLRDHUP = EPOLLRDHUP;
static const int CSystemShims_EPOLL_CTL_ADD = EPOLL_CTL_ADD;
static const int CSystemShims_EPOLL_CTL_MOD = EPOLL_CTL_MOD;
static const int CSystemShims_EPOLL_CTL_DEL = EPOLL_CTL_DEL;
#endif

/// `accept4` where it exists; elsewhere `accept` followed by `fcntl`.
static inline int CSystemShims_accept_nonblocking(int fd, struct sockaddr *address, socklen_t *length) {
#ifdef __linux__
    return accept4(fd, address, length, SOCK_NONBLOCK | SOCK_CLOEXEC);
#else
    int client = accept(fd, address, length);
    if (client >= 0) {
        fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK);
        fcntl(client, F_SETFD, FD_CLOEXEC);
    }
    return client;
#endif
}

/// A non-blocking, close-on-exec TCP socket.
static inline int CSystemShims_socket_tcp(int family) {
#ifdef __linux__
    return socket(family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
#else
    int fd = socket(family, SOCK_STREAM, 0);
    if (fd >= 0) {
        fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
        fcntl(fd, F_SETFD, FD_CLOEXEC);
    }
    return fd;
#endif
}

/// `send` that never raises SIGPIPE.
static inline ssize_t CSystemShims_send(int fd, const void *buffer, size_t length) {
#ifdef MSG_NOSIGNAL
    return send(fd, buffer, length, MSG_NOSIGNAL);
#else
    return send(fd, buffer, length, 0);
#endif
}

static inline int CSystemShims_set_nonblocking(int fd) {
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0) return -1;
    return fcntl(fd, F_SETFL, flags | O_NONBLOCK);
}

static inline int CSystemShims_set_cloexec(int fd) { return fcntl(fd, F_SETFD, FD_CLOEXEC); }

static inline int CSystemShims_pipe_nonblocking(int fds[2]) {
    if (pipe(fds) != 0) return -1;
    for (int i = 0; i < 2; i++) {
        CSystemShims_set_nonblocking(fds[i]);
        CSystemShims_set_cloexec(fds[i]);
    }
    return 0;
}

static inline int CSystemShims_errno(void) { return errno; }

/// A blocking pipe whose two ends are close-on-exec, so that no child started meanwhile inherits them.
static inline int CSystemShims_pipe_cloexec(int fds[2]) {
    if (pipe(fds) != 0) return -1;
    CSystemShims_set_cloexec(fds[0]);
    CSystemShims_set_cloexec(fds[1]);
    return 0;
}

#ifdef __linux__
// Declared here rather than defining _GNU_SOURCE, which would make glibc types differ from SwiftGlibc's.
extern int pthread_setname_np(pthread_t thread, const char *name);
#endif

/// Names the calling thread (at most 15 characters are kept on Linux).
static inline void CSystemShims_set_thread_name(const char *name) {
#ifdef __linux__
    char truncated[16];
    strncpy(truncated, name, 15);
    truncated[15] = 0;
    pthread_setname_np(pthread_self(), truncated);
#elif defined(__APPLE__)
    pthread_setname_np(name);
#endif
}

#ifdef __linux__
#include <spawn.h>
// glibc 2.29 and 2.34 extensions, declared here for the same reason as pthread_setname_np.
extern int posix_spawn_file_actions_addchdir_np(posix_spawn_file_actions_t *actions, const char *path);
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);

/// Starts `path` with `argv` and `envp` (NULL-terminated) in `directory` (NULL: the current one). The child's
/// standard input, output and error are `in`, `out` and `err` (-1: /dev/null) and it inherits no other
/// descriptor, whatever their close-on-exec flag, nor the parent thread's blocked signals. Returns 0 and sets
/// `pid`, or an errno value.
///
/// Unlike Foundation's `Process.run()`, nothing here reads `/proc/self/fd` in the parent (the child closes
/// its descriptors with `close_range`), so starting processes is safe while other threads open and close files.
static inline int CSystemShims_spawn(pid_t *pid, const char *path, char *const argv[], char *const envp[],
                                     const char *directory, int in, int out, int err) {
    posix_spawn_file_actions_t actions;
    int result = posix_spawn_file_actions_init(&actions);
    if (result != 0) return result;
    int sources[3] = {in, out, err};
    for (int target = 0; target < 3 && result == 0; target++) {
        if (sources[target] < 0) {
            result = posix_spawn_file_actions_addopen(&actions, target, "/dev/null", target == 0 ? O_RDONLY : O_WRONLY, 0);
        } else {
            result = posix_spawn_file_actions_adddup2(&actions, sources[target], target);
        }
    }
    if (result == 0 && directory != NULL) result = posix_spawn_file_actions_addchdir_np(&actions, directory);
    if (result == 0) result = posix_spawn_file_actions_addclosefrom_np(&actions, 3);
    // The child starts with no signal blocked and every signal at its default action: a server thread that
    // blocks SIGTERM for its signal watcher must not pass that on (a child would never see SIGTERM).
    posix_spawnattr_t attributes;
    int attributesReady = result == 0 && posix_spawnattr_init(&attributes) == 0;
    if (attributesReady) {
        sigset_t none, all;
        sigemptyset(&none);
        sigfillset(&all);
        posix_spawnattr_setsigmask(&attributes, &none);
        posix_spawnattr_setsigdefault(&attributes, &all);
        posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    }
    if (result == 0) result = posix_spawn(pid, path, &actions, attributesReady ? &attributes : NULL, argv, envp);
    if (attributesReady) posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
    return result;
}
#endif

#ifdef __linux__
extern ssize_t copy_file_range(int infd, __off64_t *pinoff, int outfd, __off64_t *poutoff, size_t length,
                               unsigned int flags);

/// Copies up to `length` bytes from `in` to `out` at their file offsets, inside the kernel (no copy through
/// user memory; a reflink on file systems that share extents). Returns the count, 0 at the end of `in`, or -1
/// with errno set.
static inline ssize_t CSystemShims_copy_file_range(int in, int out, size_t length) {
    return copy_file_range(in, NULL, out, NULL, length, 0);
}
#endif

#ifdef __GLIBC__
#include <malloc.h>

/// The C heap as glibc's allocator sees it, over all arenas: bytes handed out from the arenas, bytes in blocks
/// mapped on their own (large allocations: mapped whole, resident only where touched), and bytes freed but kept
/// in the arenas for reuse (resident until trimmed). All 0 where unknown.
static inline void CSystemShims_malloc_totals(size_t *in_use, size_t *mapped, size_t *free_kept) {
    struct mallinfo2 info = mallinfo2();
    *in_use = info.uordblks;
    *mapped = info.hblkhd;
    *free_kept = info.fordblks;
}
#else
static inline void CSystemShims_malloc_totals(size_t *in_use, size_t *mapped, size_t *free_kept) {
    *in_use = 0;
    *mapped = 0;
    *free_kept = 0;
}
#endif

static const short CSystemShims_POLLIN = POLLIN;
static const short CSystemShims_POLLOUT = POLLOUT;
static const short CSystemShims_POLLERR = POLLERR;
static const short CSystemShims_POLLHUP = POLLHUP;
static const short CSystemShims_POLLNVAL = POLLNVAL;

#endif
