{
  "targets": [
    {
      "target_name": "native",
      "sources": ["src/addon.c", "src/file-writing.c", "src/hashing.c", "src/sendfile.c"],
      "cflags": ["-O2", "-Wall", "-Wextra", "-std=gnu11"]
    }
  ]
}
