// Sends a list of segments (bytes, a range of a file given by descriptor or path, or a run
// of zip members: each one's header bytes, then its whole file by path) into
// a TCP socket on a thread of its own: file bytes go from the page cache to the socket with
// sendfile(2), the one copy Node's own fs and net APIs cannot avoid. The socket and every
// file descriptor are dup'ed before the call returns, so whatever Node later does with its
// own descriptors (closing them, the numbers reused for other files or connections), this
// thread never writes into a connection or reads from a file it was not given. Linux only.
#include "addon.h"

#ifdef __linux__

#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <unistd.h>

// How often a job waiting for the peer looks at its cancel flag.
#define POLL_SLICE_MS 1000
// Below sendfile's own per-call limit (0x7ffff000).
#define SENDFILE_STEP (1L << 30)
// A file ended before its range did: reported with its own message, not an errno.
#define SHORT_FILE (-1)

enum segment_kind { SEGMENT_BYTES, SEGMENT_FD, SEGMENT_PATH, SEGMENT_MEMBERS };

typedef struct {
  enum segment_kind kind;
  // SEGMENT_BYTES: a copy; SEGMENT_PATH: the NUL-terminated path; SEGMENT_MEMBERS: the
  // members' headers back to back
  char *bytes;
  size_t size;
  int fd;  // SEGMENT_FD: our own duplicate, closed once the job is done with it
  int64_t offset;
  int64_t length;
  // SEGMENT_MEMBERS: how many, each one's path NUL-terminated back to back (empty for a
  // member without bytes), and each one's header length then file length
  size_t members;
  char *paths;
  int64_t *lengths;
} segment_t;

typedef struct job {
  pthread_mutex_t lock;  // guards socket_fd between the thread's close and cancel's shutdown
  int socket_fd;
  atomic_int cancelled;
  // Held by the JS handle, the completion callback and the registry, each released once.
  atomic_int refs;
  int idle_timeout_ms;
  segment_t *segments;
  size_t count;
  int error;
  const char *failed_call;
  int64_t sent;
  napi_threadsafe_function done;
  napi_async_context async_context;
  napi_env env;
  struct job *next_live, *previous_live;
} job_t;

// Jobs whose thread is running, so that an environment shutting down can stop its own and
// wait for them: their threads must be done with the thread-safe function before it is freed.
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t registry_changed = PTHREAD_COND_INITIALIZER;
static job_t *live_jobs = NULL;

// Marks send handles, so that no other external can be taken for one.
static const napi_type_tag JOB_TAG = {0x3f7b2c9d8a1e4b60ULL, 0xd24e6f1a9c3b7e85ULL};

// The duplicates of file descriptors: closed as soon as the thread has sent, not when the
// JS handle is collected, which may be much later.
static void close_segment_files(job_t *job) {
  for (size_t i = 0; i < job->count; i++) {
    segment_t *segment = &job->segments[i];
    if (segment->kind == SEGMENT_FD && segment->fd >= 0) {
      close(segment->fd);
      segment->fd = -1;
    }
  }
}

static void release_job(job_t *job) {
  if (atomic_fetch_sub(&job->refs, 1) != 1) return;
  close_segment_files(job);
  for (size_t i = 0; i < job->count; i++) {
    free(job->segments[i].bytes);
    free(job->segments[i].paths);
    free(job->segments[i].lengths);
  }
  free(job->segments);
  pthread_mutex_destroy(&job->lock);
  free(job);
}

static int fail(job_t *job, const char *call, int error) {
  job->failed_call = call;
  job->error = error;
  return error;
}

// Waits until the peer takes more bytes: at most the job's idle timeout for this one wait,
// so a peer that takes a little now and then keeps the send alive, as with nginx's send_timeout.
static int wait_writable(job_t *job) {
  for (int idle_ms = 0; idle_ms < job->idle_timeout_ms; idle_ms += POLL_SLICE_MS) {
    if (atomic_load(&job->cancelled)) return fail(job, "cancel", ECANCELED);
    struct pollfd target = {.fd = job->socket_fd, .events = POLLOUT};
    int ready = poll(&target, 1, POLL_SLICE_MS);
    if (ready > 0) return 0;  // writable, or failed: the next send says which
    if (ready < 0 && errno != EINTR) return fail(job, "poll", errno);
  }
  return fail(job, "poll", ETIMEDOUT);
}

static int send_bytes(job_t *job, const char *bytes, size_t size, int more) {
  while (size > 0) {
    ssize_t sent = send(job->socket_fd, bytes, size, MSG_NOSIGNAL | (more ? MSG_MORE : 0));
    if (sent >= 0) {
      bytes += sent;
      size -= (size_t)sent;
      job->sent += sent;
    } else if (errno == EAGAIN || errno == EWOULDBLOCK) {
      if (wait_writable(job)) return job->error;
    } else if (errno != EINTR) {
      return fail(job, "send", errno);
    }
  }
  return 0;
}

static int send_file(job_t *job, int fd, int64_t offset, int64_t length) {
  off_t position = (off_t)offset;
  while (length > 0) {
    if (atomic_load(&job->cancelled)) return fail(job, "cancel", ECANCELED);
    ssize_t sent = sendfile(job->socket_fd, fd, &position, length < SENDFILE_STEP ? (size_t)length : SENDFILE_STEP);
    if (sent > 0) {
      length -= sent;
      job->sent += sent;
    } else if (sent == 0) {
      return fail(job, "sendfile", SHORT_FILE);
    } else if (errno == EAGAIN) {
      if (wait_writable(job)) return job->error;
    } else if (errno != EINTR) {
      return fail(job, "sendfile", errno);
    }
  }
  return 0;
}

// TCP_CORK, as nginx's tcp_nopush, around a large file range: only full frames leave while
// it is sent, so the reader wakes for fewer, fuller reads. Node's sockets are TCP_NODELAY,
// which sends each partial frame at once: a 1 GiB send cost the client 12,000-13,000 reads
// instead of about 9,500 and a fifth more CPU (docs/decisions/0012). Small ranges are not
// corked: a zip's 100 KiB members went out 10-20 % slower corked (their headers already
// leave with MSG_MORE). Corking is only an optimisation: a socket that refuses it (not
// TCP) is sent to as it is.
#define CORK_MIN_BYTES (1 << 20)

static void set_cork(job_t *job, int on) {
  setsockopt(job->socket_fd, IPPROTO_TCP, TCP_CORK, &on, sizeof on);
}

static int send_file_corked(job_t *job, int fd, int64_t offset, int64_t length) {
  if (length < CORK_MIN_BYTES) return send_file(job, fd, offset, length);
  set_cork(job, 1);
  int result = send_file(job, fd, offset, length);
  // Uncorking sends what is left of the last frame now, not after the kernel's 200 ms.
  set_cork(job, 0);
  return result;
}

static int send_path(job_t *job, const char *path, int64_t offset, int64_t length) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return fail(job, "open", errno);
  int result = send_file_corked(job, fd, offset, length);
  close(fd);
  return result;
}

// Each member's header, then its file from the start; a header leaves with MSG_MORE
// whenever bytes follow it.
static int send_members(job_t *job, const segment_t *segment, int more) {
  const char *header = segment->bytes;
  const char *path = segment->paths;
  for (size_t i = 0; i < segment->members; i++) {
    int64_t header_length = segment->lengths[2 * i], file_length = segment->lengths[2 * i + 1];
    int last = i + 1 == segment->members;
    if (send_bytes(job, header, (size_t)header_length, more || !last || file_length > 0)) return job->error;
    header += header_length;
    if (file_length > 0 && send_path(job, path, 0, file_length)) return job->error;
    path += strlen(path) + 1;
  }
  return 0;
}

static int send_segment(job_t *job, const segment_t *segment, int more) {
  switch (segment->kind) {
    case SEGMENT_BYTES:
      return send_bytes(job, segment->bytes, segment->size, more);
    case SEGMENT_FD:
      return send_file_corked(job, segment->fd, segment->offset, segment->length);
    case SEGMENT_PATH:
      return send_path(job, segment->bytes, segment->offset, segment->length);
    case SEGMENT_MEMBERS:
      return send_members(job, segment, more);
  }
  return 0;
}

static void cancel(job_t *job) {
  atomic_store(&job->cancelled, 1);
  pthread_mutex_lock(&job->lock);
  if (job->socket_fd >= 0) shutdown(job->socket_fd, SHUT_RDWR);
  pthread_mutex_unlock(&job->lock);
}

static void *run_job(void *data) {
  job_t *job = data;
  for (size_t i = 0; i < job->count; i++) {
    if (send_segment(job, &job->segments[i], i + 1 < job->count)) break;
  }
  close_segment_files(job);
  pthread_mutex_lock(&job->lock);
  close(job->socket_fd);
  job->socket_fd = -1;
  pthread_mutex_unlock(&job->lock);
  // Refused only while the environment shuts down: the completion will never run.
  if (napi_call_threadsafe_function(job->done, job, napi_tsfn_blocking) != napi_ok) release_job(job);
  napi_release_threadsafe_function(job->done, napi_tsfn_release);

  pthread_mutex_lock(&registry_lock);
  if (job->previous_live) job->previous_live->next_live = job->next_live;
  else live_jobs = job->next_live;
  if (job->next_live) job->next_live->previous_live = job->previous_live;
  pthread_cond_broadcast(&registry_changed);
  pthread_mutex_unlock(&registry_lock);
  release_job(job);
  return NULL;
}

static int has_live_job(napi_env env) {
  for (job_t *job = live_jobs; job; job = job->next_live) {
    if (job->env == env) return 1;
  }
  return 0;
}

// Runs when an environment shuts down: its sends stop at their next step.
static void stop_live_jobs(void *env) {
  pthread_mutex_lock(&registry_lock);
  for (job_t *job = live_jobs; job; job = job->next_live) {
    if (job->env == env) cancel(job);
  }
  while (has_live_job(env)) pthread_cond_wait(&registry_changed, &registry_lock);
  pthread_mutex_unlock(&registry_lock);
}

static void finish_on_main_thread(napi_env env, napi_value callback, void *context, void *data) {
  (void)context;
  job_t *job = data;
  if (env != NULL) {
    napi_value global, args[2];
    napi_get_global(env, &global);
    if (job->error == 0) {
      napi_get_null(env, &args[0]);
    } else {
      const char *reason = job->error == SHORT_FILE ? "the file ended before its range did" : strerror(job->error);
      const char *code = job->error == SHORT_FILE ? "ESHORTFILE" : job->error == ECANCELED ? "ECANCELED" : NULL;
      char message[256];
      snprintf(message, sizeof message, "%s failed: %s", job->failed_call, reason);
      napi_value text, code_value = NULL;
      napi_create_string_utf8(env, message, NAPI_AUTO_LENGTH, &text);
      if (code != NULL) napi_create_string_utf8(env, code, NAPI_AUTO_LENGTH, &code_value);
      napi_create_error(env, code_value, text, &args[0]);
      napi_value errno_value;
      napi_create_int32(env, job->error, &errno_value);
      napi_set_named_property(env, args[0], "errno", errno_value);
    }
    napi_create_double(env, (double)job->sent, &args[1]);
    // As a callback from the event loop, so that the promises it settles run their reactions now.
    napi_make_callback(env, job->async_context, global, callback, 2, args, NULL);
    napi_async_destroy(env, job->async_context);
  }
  release_job(job);
}

static void finalize_handle(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  release_job(data);
}

static int read_integer(napi_env env, napi_value object, const char *name, int64_t *out) {
  napi_value value;
  double number;
  if (napi_get_named_property(env, object, name, &value) != napi_ok) return 0;
  if (napi_get_value_double(env, value, &number) != napi_ok) return 0;
  if (!(number >= 0 && number <= 9007199254740991.0) || number != (double)(int64_t)number) return 0;
  *out = (int64_t)number;
  return 1;
}

// {headers, paths, lengths, length}: the members' headers in one Buffer, their paths each
// followed by a NUL in one string, a Float64Array of each one's header length then file
// length, and the bytes in all. Three values to read for a whole group of members, where
// a segment each for headers and files took several property reads apiece.
static int read_members(napi_env env, napi_value value, segment_t *segment) {
  napi_value headers, paths, lengths;
  bool is_buffer = false, is_typedarray = false;
  if (napi_get_named_property(env, value, "headers", &headers) != napi_ok || napi_get_named_property(env, value, "paths", &paths) != napi_ok ||
      napi_get_named_property(env, value, "lengths", &lengths) != napi_ok)
    return 0;
  napi_is_buffer(env, headers, &is_buffer);
  napi_is_typedarray(env, lengths, &is_typedarray);
  if (!is_buffer || !is_typedarray || !read_integer(env, value, "length", &segment->length)) return 0;
  napi_typedarray_type type;
  size_t values;
  void *numbers;
  napi_get_typedarray_info(env, lengths, &type, &values, &numbers, NULL, NULL);
  if (type != napi_float64_array || values % 2 != 0) return 0;
  segment->kind = SEGMENT_MEMBERS;
  segment->members = values / 2;
  void *data;
  napi_get_buffer_info(env, headers, &data, &segment->size);
  size_t paths_size;
  if (napi_get_value_string_utf8(env, paths, NULL, 0, &paths_size) != napi_ok) return 0;
  segment->bytes = malloc(segment->size > 0 ? segment->size : 1);
  segment->paths = malloc(paths_size + 1);
  segment->lengths = malloc(values > 0 ? values * sizeof *segment->lengths : 1);
  if (segment->bytes == NULL || segment->paths == NULL || segment->lengths == NULL) return 0;
  memcpy(segment->bytes, data, segment->size);
  napi_get_value_string_utf8(env, paths, segment->paths, paths_size + 1, &paths_size);
  // Every length whole and non-negative, the headers' adding up to the Buffer and all to
  // `length`, one NUL-terminated path per member (and one to open for each file's bytes).
  int64_t header_bytes = 0, all_bytes = 0;
  size_t path_at = 0;
  for (size_t i = 0; i < values; i++) {
    double number = ((const double *)numbers)[i];
    if (!(number >= 0 && number <= 9007199254740991.0) || number != (double)(int64_t)number) return 0;
    segment->lengths[i] = (int64_t)number;
    if (i % 2 == 0) header_bytes += segment->lengths[i];
    all_bytes += segment->lengths[i];
    if (all_bytes > 9007199254740991LL) return 0;  // past any `length` a number holds, and before int64_t overflows
  }
  for (size_t i = 0; i < segment->members; i++) {
    const char *end = memchr(segment->paths + path_at, '\0', paths_size - path_at);
    if (end == NULL || (end == segment->paths + path_at && segment->lengths[2 * i + 1] > 0)) return 0;
    path_at = (size_t)(end - segment->paths) + 1;
  }
  return header_bytes == (int64_t)segment->size && all_bytes == segment->length && path_at == paths_size;
}

// 1 when read; 0 when malformed, or with *dup_error set when a descriptor could not be dup'ed.
static int read_segment(napi_env env, napi_value value, segment_t *segment, int *dup_error) {
  bool is_buffer = false, has_headers = false;
  napi_is_buffer(env, value, &is_buffer);
  if (!is_buffer) napi_has_named_property(env, value, "headers", &has_headers);
  if (has_headers) return read_members(env, value, segment);
  if (is_buffer) {
    void *data;
    size_t size;
    napi_get_buffer_info(env, value, &data, &size);
    segment->kind = SEGMENT_BYTES;
    segment->size = size;
    segment->bytes = malloc(size > 0 ? size : 1);
    if (segment->bytes == NULL) return 0;
    memcpy(segment->bytes, data, size);
    return 1;
  }
  if (!read_integer(env, value, "offset", &segment->offset) || !read_integer(env, value, "length", &segment->length)) return 0;
  bool has_fd = false, has_path = false;
  napi_has_named_property(env, value, "fd", &has_fd);
  napi_has_named_property(env, value, "path", &has_path);
  if (has_fd == has_path) return 0;
  if (has_fd) {
    int64_t fd;
    if (!read_integer(env, value, "fd", &fd) || fd > INT32_MAX) return 0;
    // Now, before returning to JS: once the caller closes its descriptor, the number may
    // belong to another file, and sendfile would send that file's bytes.
    int own = fcntl((int)fd, F_DUPFD_CLOEXEC, 0);
    if (own < 0) {
      *dup_error = errno;
      return 0;
    }
    segment->kind = SEGMENT_FD;
    segment->fd = own;
    return 1;
  }
  napi_value path;
  size_t length;
  napi_get_named_property(env, value, "path", &path);
  if (napi_get_value_string_utf8(env, path, NULL, 0, &length) != napi_ok) return 0;
  segment->kind = SEGMENT_PATH;
  segment->bytes = malloc(length + 1);
  if (segment->bytes == NULL) return 0;
  napi_get_value_string_utf8(env, path, segment->bytes, length + 1, &length);
  return strlen(segment->bytes) == length;  // no NUL inside a path
}

// send(socketFd, segments, idleTimeoutMs, callback(error, bytesSent)) -> handle
static napi_value send_segments(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  int32_t socket_fd, idle_timeout_ms;
  uint32_t count;
  bool is_array = false;
  napi_valuetype callback_type = napi_undefined;
  if (argc == 4) {
    napi_is_array(env, argv[1], &is_array);
    napi_typeof(env, argv[3], &callback_type);
  }
  if (argc < 4 || napi_get_value_int32(env, argv[0], &socket_fd) != napi_ok || socket_fd < 0 || !is_array ||
      napi_get_value_int32(env, argv[2], &idle_timeout_ms) != napi_ok || idle_timeout_ms <= 0 || callback_type != napi_function) {
    napi_throw_type_error(env, NULL, "send(socketFd, segments, idleTimeoutMs, callback) expects a descriptor, an array, a positive timeout and a function");
    return NULL;
  }
  napi_get_array_length(env, argv[1], &count);

  job_t *job = calloc(1, sizeof *job);
  if (job == NULL || (job->segments = calloc(count > 0 ? count : 1, sizeof *job->segments)) == NULL) {
    free(job);
    napi_throw_error(env, NULL, "out of memory");
    return NULL;
  }
  pthread_mutex_init(&job->lock, NULL);
  atomic_init(&job->refs, 1);
  job->socket_fd = -1;
  job->idle_timeout_ms = idle_timeout_ms;
  job->env = env;
  for (uint32_t i = 0; i < count; i++) {
    napi_value element;
    int dup_error = 0;
    job->count = i + 1;  // so release_job frees (and closes) what was read so far
    if (napi_get_element(env, argv[1], i, &element) != napi_ok || !read_segment(env, element, &job->segments[i], &dup_error)) {
      release_job(job);
      if (dup_error) napi_throw_error(env, NULL, strerror(dup_error));
      else napi_throw_type_error(env, NULL, "a segment is a Buffer, {fd | path, offset, length} or {headers, paths, lengths, length} with whole, non-negative numbers");
      return NULL;
    }
  }
  job->count = count;

  job->socket_fd = fcntl(socket_fd, F_DUPFD_CLOEXEC, 0);
  if (job->socket_fd < 0) {
    int error = errno;
    release_job(job);
    napi_throw_error(env, NULL, strerror(error));
    return NULL;
  }
  napi_value name, handle;
  napi_create_string_utf8(env, "sendfile", NAPI_AUTO_LENGTH, &name);
  if (napi_async_init(env, NULL, name, &job->async_context) != napi_ok) {
    close(job->socket_fd);
    release_job(job);
    napi_throw_error(env, NULL, "could not create the async context");
    return NULL;
  }
  if (napi_create_threadsafe_function(env, argv[3], NULL, name, 0, 1, NULL, NULL, NULL, finish_on_main_thread, &job->done) != napi_ok) {
    close(job->socket_fd);
    napi_async_destroy(env, job->async_context);
    release_job(job);
    napi_throw_error(env, NULL, "could not create the completion callback");
    return NULL;
  }
  if (napi_create_external(env, job, finalize_handle, NULL, &handle) != napi_ok) {
    close(job->socket_fd);
    napi_release_threadsafe_function(job->done, napi_tsfn_abort);
    napi_async_destroy(env, job->async_context);
    release_job(job);
    napi_throw_error(env, NULL, "could not create the handle");
    return NULL;
  }
  if (napi_type_tag_object(env, handle, &JOB_TAG) != napi_ok) {
    // The handle's finalizer releases the one reference.
    close(job->socket_fd);
    job->socket_fd = -1;
    napi_release_threadsafe_function(job->done, napi_tsfn_abort);
    napi_async_destroy(env, job->async_context);
    napi_throw_error(env, NULL, "could not tag the handle");
    return NULL;
  }
  // From here the handle's finalizer holds one reference; the completion and the registry the others.
  atomic_store(&job->refs, 3);

  pthread_attr_t attributes;
  pthread_attr_init(&attributes);
  pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
  pthread_attr_setstacksize(&attributes, 256 * 1024);
  pthread_t thread;
  pthread_mutex_lock(&registry_lock);
  int started = pthread_create(&thread, &attributes, run_job, job);
  if (started == 0) {
    job->next_live = live_jobs;
    if (live_jobs) live_jobs->previous_live = job;
    live_jobs = job;
  }
  pthread_mutex_unlock(&registry_lock);
  pthread_attr_destroy(&attributes);
  if (started != 0) {
    // The completion and the registry will never hold theirs; the handle's finalizer drops the last.
    close(job->socket_fd);
    job->socket_fd = -1;
    napi_release_threadsafe_function(job->done, napi_tsfn_abort);
    napi_async_destroy(env, job->async_context);
    release_job(job);
    release_job(job);
    napi_throw_error(env, NULL, strerror(started));
    return NULL;
  }
  return handle;
}

// cancel(handle): the job stops at its next step and reports ECANCELED; shutting the
// socket down wakes a send that is waiting for the peer. A finished job is left alone.
static napi_value cancel_job(napi_env env, napi_callback_info info) {
  job_t *job = tagged_argument(env, info, &JOB_TAG);
  if (job == NULL) {
    napi_throw_type_error(env, NULL, "cancel(handle) expects a handle from send");
    return NULL;
  }
  cancel(job);
  return NULL;
}

void register_sending(napi_env env, napi_value exports) {
  napi_value send_function, cancel_function;
  napi_create_function(env, "send", NAPI_AUTO_LENGTH, send_segments, NULL, &send_function);
  napi_create_function(env, "cancel", NAPI_AUTO_LENGTH, cancel_job, NULL, &cancel_function);
  napi_set_named_property(env, exports, "send", send_function);
  napi_set_named_property(env, exports, "cancel", cancel_function);
  napi_add_env_cleanup_hook(env, stop_live_jobs, env);
}

#else

void register_sending(napi_env env, napi_value exports) {
  (void)env;
  (void)exports;
}

#endif
