// Writes an upload's chunks into its file on the libuv thread pool. Past its first 4 MiB a
// file goes to disk past the page cache where the file system allows it (O_DIRECT): for a
// large upload the kernel's copy into the cache and its write-back cost more CPU than the
// hashing, and the cache is better kept for what is read. Direct I/O wants addresses,
// offsets and lengths aligned to the logical block size, so chunks are copied into a
// page-aligned buffer that goes to disk whenever it is full; the last, partial buffer is
// written through the cache and the file fsynced. Small files, and file systems without
// O_DIRECT, are written straight from the chunks through the cache, which then saves a copy;
// there, write-back starts every 4 MiB, so the closing fsync only waits for the last few.
#define _GNU_SOURCE
#include "addon.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <uv.h>

// Marks writer handles, so that no other external can be taken for one.
static const napi_type_tag WRITER_TAG = {0x51c4e9a07d2b3f86ULL, 0xa83f0d6e2c71b594ULL};

// Disk writes of 4 MiB reach the disk's direct speed here. The buffer is mapped (so it is
// page-aligned) once a file needs it, and unmapped when the file is done. It is also where
// a file switches to direct writes: smaller ones gain nothing from them and would pay for
// the copy and the mapping (50 concurrent 1 MiB uploads ran 20% slower).
#define BUFFER_BYTES (4 * 1024 * 1024)

typedef struct {
  int fd;  // our own dup of the caller's descriptor; -1 once closed
  int direct;  // O_DIRECT is on: bytes go through the buffer
  int cache_only;  // the file system refused O_DIRECT
  unsigned char *buffer;
  size_t filled;
  off_t offset;  // bytes written so far: where the buffer's first byte goes
  off_t flushed;  // write-back started up to here (cache writes)
  int busy;
  int closing;  // closed by the caller: the job in flight closes the file when it is done
  int error;
  const char *failed_call;
  // The job in flight: the chunks' bytes, kept alive by a reference to their array.
  int finishing;
  size_t count;
  const unsigned char **data;
  size_t *lengths;
  napi_ref chunks_ref, callback_ref, self_ref;
  napi_async_work work;
} writer_t;

static void drop_chunks(writer_t *writer) {
  free(writer->data);
  free(writer->lengths);
  writer->data = NULL;
  writer->lengths = NULL;
  writer->count = 0;
}

static void release_file(writer_t *writer) {
  if (writer->fd >= 0) close(writer->fd);
  writer->fd = -1;
  if (writer->buffer != NULL) munmap(writer->buffer, BUFFER_BYTES);
  writer->buffer = NULL;
}

static void free_writer(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  writer_t *writer = data;
  release_file(writer);
  drop_chunks(writer);
  free(writer);
}

static int fail(writer_t *writer, const char *call, int error) {
  writer->failed_call = call;
  writer->error = error;
  return -1;
}

static int set_direct(writer_t *writer, int direct) {
#ifdef O_DIRECT
  int flags = fcntl(writer->fd, F_GETFL);
  if (flags == -1 || fcntl(writer->fd, F_SETFL, direct ? flags | O_DIRECT : flags & ~O_DIRECT) == -1) return -1;
  writer->direct = direct;
  return 0;
#else
  (void)writer;
  (void)direct;
  errno = EINVAL;
  return -1;
#endif
}

// Writes `length` bytes at the writer's offset and moves it on.
static int write_at_offset(writer_t *writer, const unsigned char *bytes, size_t length) {
  size_t written = 0;
  while (written < length) {
    ssize_t result = pwrite(writer->fd, bytes + written, length - written, writer->offset + (off_t)written);
    if (result > 0) {
      written += (size_t)result;
    } else if (result == 0) {
      return fail(writer, "write", ENOSPC);
    } else if (errno == EINVAL && writer->direct) {
      // A device that wants a larger alignment, or a short direct write left the rest
      // unaligned: the page cache takes any.
      if (set_direct(writer, 0) == -1) return fail(writer, "fcntl", errno);
      writer->cache_only = 1;
    } else if (errno != EINTR) {
      return fail(writer, "write", errno);
    }
  }
  writer->offset += (off_t)length;
#ifdef SYNC_FILE_RANGE_WRITE
  if (!writer->direct && writer->offset - writer->flushed >= BUFFER_BYTES) {
    sync_file_range(writer->fd, writer->flushed, writer->offset - writer->flushed, SYNC_FILE_RANGE_WRITE);
    writer->flushed = writer->offset;
  }
#endif
  return 0;
}

// Past the first buffer's worth, at an offset aligned for it, a file goes direct if it can.
static int start_direct(writer_t *writer) {
  if (set_direct(writer, 1) == -1) {
    writer->cache_only = 1;
    return 0;
  }
  void *buffer = mmap(NULL, BUFFER_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (buffer == MAP_FAILED) return fail(writer, "mmap", errno);
  writer->buffer = buffer;
  return 0;
}

static void run_job(napi_env env, void *data) {
  (void)env;
  writer_t *writer = data;
  for (size_t i = 0; i < writer->count; i++) {
    const unsigned char *bytes = writer->data[i];
    size_t left = writer->lengths[i];
    while (left > 0) {
      size_t taken = left;
      if (writer->direct) {
        if (BUFFER_BYTES - writer->filled < taken) taken = BUFFER_BYTES - writer->filled;
        memcpy(writer->buffer + writer->filled, bytes, taken);
        writer->filled += taken;
        if (writer->filled == BUFFER_BYTES) {
          if (write_at_offset(writer, writer->buffer, BUFFER_BYTES) == -1) return;
          writer->filled = 0;
        }
      } else if (!writer->cache_only && writer->offset >= BUFFER_BYTES && writer->offset % BUFFER_BYTES == 0) {
        // Past the first buffer, at a boundary, writes go direct: a file from its 4 MiB on,
        // and a resumed upload's PATCH at once (its closing fsync then waits for no cache).
        if (start_direct(writer) == -1) return;
        continue;
      } else {
        // Through the cache up to the first buffer boundary past the file's first buffer.
        off_t to_boundary = BUFFER_BYTES - writer->offset % BUFFER_BYTES;
        if (!writer->cache_only && (off_t)taken > to_boundary) taken = (size_t)to_boundary;
        if (write_at_offset(writer, bytes, taken) == -1) return;
      }
      bytes += taken;
      left -= taken;
    }
  }
  if (!writer->finishing) return;
  // The last buffer's length is rarely a multiple of the alignment: it goes through the cache.
  if (writer->direct && set_direct(writer, 0) == -1) {
    fail(writer, "fcntl", errno);
    return;
  }
  if (write_at_offset(writer, writer->buffer, writer->filled) == -1) return;
  writer->filled = 0;
  if (fsync(writer->fd) == -1) fail(writer, "fsync", errno);
}

static void complete_job(napi_env env, napi_status status, void *data) {
  writer_t *writer = data;
  napi_value error;
  if (writer->chunks_ref != NULL) napi_delete_reference(env, writer->chunks_ref);
  napi_delete_async_work(env, writer->work);
  drop_chunks(writer);
  writer->busy = 0;
  if (writer->finishing || writer->closing || writer->error) release_file(writer);
  if (status == napi_ok && writer->error == 0) {
    napi_get_null(env, &error);
  } else {
    int code = status == napi_ok ? writer->error : ECANCELED;
    char message[256];
    snprintf(message, sizeof message, "%s failed: %s", status == napi_ok ? writer->failed_call : "write", strerror(code));
    napi_value text, code_value;
    napi_create_string_utf8(env, message, NAPI_AUTO_LENGTH, &text);
    napi_create_string_utf8(env, uv_err_name(uv_translate_sys_error(code)), NAPI_AUTO_LENGTH, &code_value);
    napi_create_error(env, code_value, text, &error);
  }
  call_back_and_release(env, writer->callback_ref, writer->self_ref, error);
}

// createFileWriter(fd, offset = 0) -> handle: writes go to a dup of `fd` from `offset` on
// (a resumed upload's next bytes), so the caller may close its own descriptor at any time
// without a job ever writing into a file it was not given.
static napi_value create_file_writer(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  int32_t fd = -1;
  int64_t start = 0;
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  napi_valuetype start_type = napi_undefined;
  if (argc >= 2) napi_typeof(env, argv[1], &start_type);
  if (argc < 1 || napi_get_value_int32(env, argv[0], &fd) != napi_ok || fd < 0 ||
      (start_type != napi_undefined && (napi_get_value_int64(env, argv[1], &start) != napi_ok || start < 0))) {
    napi_throw_type_error(env, NULL, "createFileWriter(fd, offset) expects a file descriptor and an offset of 0 or more");
    return NULL;
  }
  writer_t *writer = calloc(1, sizeof *writer);
  if (writer == NULL) {
    napi_throw_error(env, "WRITE_FAILED", "out of memory");
    return NULL;
  }
  writer->offset = (off_t)start;
  writer->flushed = (off_t)start;
  writer->fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
  if (writer->fd == -1) {
    int error = errno;
    free(writer);
    napi_throw_error(env, uv_err_name(uv_translate_sys_error(error)), strerror(error));
    return NULL;
  }
  napi_value handle;
  if (napi_create_external(env, writer, free_writer, NULL, &handle) != napi_ok) {
    free_writer(env, writer, NULL);
    napi_throw_error(env, "WRITE_FAILED", "could not create the handle");
    return NULL;
  }
  if (napi_type_tag_object(env, handle, &WRITER_TAG) != napi_ok) {
    // The handle's finalizer closes the file.
    napi_throw_error(env, "WRITE_FAILED", "could not tag the handle");
    return NULL;
  }
  return handle;
}

static napi_value queue_job(napi_env env, napi_value handle, writer_t *writer, napi_value chunks, napi_value callback, int finishing) {
  if (writer->busy || writer->fd < 0) {
    napi_throw_error(env, "WRITE_FAILED", writer->busy ? "the file writer is busy" : "the file writer is closed");
    return NULL;
  }
  int valid = chunks == NULL ? 1 : buffer_list(env, chunks, &writer->data, &writer->lengths, &writer->count);
  napi_value name;
  napi_create_string_utf8(env, "writeFile", NAPI_AUTO_LENGTH, &name);
  if (!valid || napi_create_async_work(env, NULL, name, run_job, complete_job, writer, &writer->work) != napi_ok) {
    drop_chunks(writer);
    napi_throw_type_error(env, NULL, "chunks must be Buffers");
    return NULL;
  }
  writer->finishing = finishing;
  writer->chunks_ref = NULL;
  if ((chunks != NULL && napi_create_reference(env, chunks, 1, &writer->chunks_ref) != napi_ok) ||
      napi_create_reference(env, callback, 1, &writer->callback_ref) != napi_ok ||
      napi_create_reference(env, handle, 1, &writer->self_ref) != napi_ok || napi_queue_async_work(env, writer->work) != napi_ok) {
    // Only when the environment is going away; the writer is not used again.
    napi_throw_error(env, "WRITE_FAILED", "could not queue the write");
    return NULL;
  }
  writer->busy = 1;
  return NULL;
}

// writeFile(handle, chunks, callback(error)) appends the chunks, in order, on the thread
// pool; finishFile(handle, callback(error)) writes what is left, fsyncs and closes the
// writer's descriptor (the caller's own stays open). One job at a time per writer, and the
// chunks must not change until it calls back.
static napi_value queue_call(napi_env env, napi_callback_info info, int finishing) {
  size_t expected = finishing ? 2 : 3, argc = 3;
  napi_value argv[3];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  napi_value chunks = finishing ? NULL : argv[1], callback = argv[expected - 1];
  writer_t *writer = NULL;
  bool is_array = finishing;
  napi_valuetype callback_type = napi_undefined;
  if (argc >= expected) {
    if (!finishing) napi_is_array(env, chunks, &is_array);
    napi_typeof(env, callback, &callback_type);
  }
  if (argc < expected || (writer = tagged_external(env, argv[0], &WRITER_TAG)) == NULL || !is_array || callback_type != napi_function) {
    napi_throw_type_error(env, NULL, finishing ? "finishFile(handle, callback) expects a file writer and a function" : "writeFile(handle, chunks, callback) expects a file writer, an array and a function");
    return NULL;
  }
  return queue_job(env, argv[0], writer, chunks, callback, finishing);
}

static napi_value write_file(napi_env env, napi_callback_info info) {
  return queue_call(env, info, 0);
}

static napi_value finish_file(napi_env env, napi_callback_info info) {
  return queue_call(env, info, 1);
}

// closeFileWriter(handle): gives up the file, at once or when the job in flight is done.
static napi_value close_file_writer(napi_env env, napi_callback_info info) {
  writer_t *writer = tagged_argument(env, info, &WRITER_TAG);
  if (writer == NULL) {
    napi_throw_type_error(env, NULL, "closeFileWriter(handle) expects a file writer");
    return NULL;
  }
  if (writer->busy) writer->closing = 1;
  else release_file(writer);
  return NULL;
}

void register_file_writing(napi_env env, napi_value exports) {
  const napi_property_descriptor functions[] = {
      {"createFileWriter", NULL, create_file_writer, NULL, NULL, NULL, napi_default_method, NULL},
      {"writeFile", NULL, write_file, NULL, NULL, NULL, napi_default_method, NULL},
      {"finishFile", NULL, finish_file, NULL, NULL, NULL, napi_default_method, NULL},
      {"closeFileWriter", NULL, close_file_writer, NULL, NULL, NULL, napi_default_method, NULL},
  };
  napi_define_properties(env, exports, 4, functions);
}
