"""The archiver: finished matches to cold storage, and the trimming of what Redis keeps."""
