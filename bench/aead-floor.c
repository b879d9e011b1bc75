/*
 * What one AES-256-GCM seal of a requestState costs in OpenSSL 3.0 itself, against what node 20's
 * createCipheriv + setAAD + update + final + getAuthTag makes it do, and against the HMAC seal's two
 * SHA-256 (bench/profile-notes.md, "what the AES-GCM mode costs over HMAC"). Thread CPU time per seal,
 * median of 7 batches. Not part of any bench row; needs the OpenSSL headers (Debian libssl-dev).
 *
 *   gcc -O2 -o /tmp/aead-floor bench/aead-floor.c -lcrypto && /tmp/aead-floor [claims bytes, default 360]
 */
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BATCHES 7
#define OPS 100000

static unsigned char key[32], aad[36], iv[12], tag[16], msg[64 + 4 + 65536], digest[32];
static unsigned char *plain, *out;
static size_t len = 360;
static EVP_CIPHER *gcm;
static EVP_CIPHER_CTX *kept;
static EVP_MD *sha256;

static double now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec * 1e9 + t.tv_nsec;
}

/* What node 20's CipherBase does per token: a named (implicitly fetched) cipher on a fresh context, the
 * IV length and key length set through ctrl, a buffer per update and per final, the tag read by ctrl. */
static void node_like(void) {
  EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
  int n;
  EVP_CipherInit_ex(ctx, EVP_get_cipherbyname("aes-256-gcm"), NULL, NULL, NULL, 1);
  EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_IVLEN, 12, NULL);
  EVP_CIPHER_CTX_set_key_length(ctx, 32);
  EVP_CipherInit_ex(ctx, NULL, NULL, key, iv, 1);
  EVP_CipherUpdate(ctx, NULL, &n, aad, sizeof aad);
  unsigned char *body = malloc(len + 1);
  EVP_CipherUpdate(ctx, body, &n, plain, (int)len);
  unsigned char *fin = malloc(1);
  EVP_CipherFinal_ex(ctx, fin, &n);
  EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 16, tag);
  EVP_CIPHER_CTX_free(ctx);
  free(fin);
  free(body);
}

/* The cipher fetched once (explicit fetch), a fresh context per token. */
static void prefetched(void) {
  EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
  int n;
  EVP_EncryptInit_ex(ctx, gcm, NULL, key, iv);
  EVP_EncryptUpdate(ctx, NULL, &n, aad, sizeof aad);
  EVP_EncryptUpdate(ctx, out, &n, plain, (int)len);
  EVP_EncryptFinal_ex(ctx, out + len, &n);
  EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 16, tag);
  EVP_CIPHER_CTX_free(ctx);
}

/* One context kept for the key (its AES schedule and GHASH key), re-initialised with each token's IV. */
static void reused(void) {
  int n;
  EVP_EncryptInit_ex(kept, NULL, NULL, NULL, iv);
  EVP_EncryptUpdate(kept, NULL, &n, aad, sizeof aad);
  EVP_EncryptUpdate(kept, out, &n, plain, (int)len);
  EVP_EncryptFinal_ex(kept, out + len, &n);
  EVP_CIPHER_CTX_ctrl(kept, EVP_CTRL_AEAD_GET_TAG, 16, tag);
}

/* The HMAC seal: SHA-256 of pad ‖ prefix ‖ kid ‖ claims, then of pad ‖ that digest (src/state/hmac-sha256.ts). */
static void hmac_two_hashes(void) {
  EVP_Digest(msg, 64 + 4 + len, digest, NULL, sha256, NULL);
  EVP_Digest(msg, 64 + 32, digest, NULL, sha256, NULL);
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double per_op_ns(void (*op)(void)) {
  double runs[BATCHES];
  for (int i = 0; i < OPS / 10; i++) op();
  for (int b = 0; b < BATCHES; b++) {
    double t0 = now_ns();
    for (int i = 0; i < OPS; i++) { iv[i & 7]++; op(); }
    runs[b] = (now_ns() - t0) / OPS;
  }
  qsort(runs, BATCHES, sizeof runs[0], cmp);
  return runs[BATCHES / 2];
}

int main(int argc, char **argv) {
  if (argc > 1) len = (size_t)atoi(argv[1]);
  if (len == 0 || len > 65536) return 2;
  plain = malloc(len);
  out = malloc(len + 16);
  RAND_bytes(key, sizeof key); RAND_bytes(aad, sizeof aad); RAND_bytes(iv, sizeof iv);
  RAND_bytes(plain, (int)len); RAND_bytes(msg, sizeof msg);
  gcm = EVP_CIPHER_fetch(NULL, "AES-256-GCM", NULL);
  sha256 = EVP_MD_fetch(NULL, "SHA256", NULL);
  kept = EVP_CIPHER_CTX_new();
  EVP_EncryptInit_ex(kept, gcm, NULL, key, iv);
  printf("%s, %zu B of claims, thread CPU ns per seal (median of %d batches of %d)\n", OpenSSL_version(OPENSSL_VERSION), len, BATCHES, OPS);
  double h = per_op_ns(hmac_two_hashes);
  double a = per_op_ns(node_like), p = per_op_ns(prefetched), r = per_op_ns(reused);
  printf("HMAC seal, two one-shot SHA-256                    %7.0f ns  1.00\n", h);
  printf("AES-GCM as node 20 drives it (implicit fetch, ctx) %7.0f ns  %.2f\n", a, a / h);
  printf("AES-GCM, cipher fetched once, fresh context        %7.0f ns  %.2f\n", p, p / h);
  printf("AES-GCM, one context per key, new IV per token     %7.0f ns  %.2f\n", r, r / h);
  return 0;
}
