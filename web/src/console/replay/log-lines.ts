// A log file's lines as text, decompressed on the way when it is gzipped (the magic bytes say so, whatever
// its name), with the count of the file's bytes read so far for a progress bar.

export const isGzip = (head: Uint8Array): boolean => head[0] === 0x1f && head[1] === 0x8b;

export async function* logLines(
  file: Blob,
  progress: (bytesRead: number) => void,
): AsyncGenerator<string, void, undefined> {
  const gzipped = isGzip(new Uint8Array(await file.slice(0, 2).arrayBuffer()));
  let bytesRead = 0;
  const counted = file.stream().pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        bytesRead += chunk.byteLength;
        progress(bytesRead);
        controller.enqueue(chunk);
      },
    }),
  );
  const bytes = gzipped
    ? counted.pipeThrough(
        new DecompressionStream('gzip') as unknown as TransformStream<Uint8Array, Uint8Array>,
      )
    : counted;
  const reader = bytes
    .pipeThrough(new TextDecoderStream() as unknown as TransformStream<Uint8Array, string>)
    .getReader();
  let rest = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const lines = (rest + value).split('\n');
    rest = lines.pop() ?? '';
    yield* lines;
  }
  if (rest !== '') yield rest;
}
