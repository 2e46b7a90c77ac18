package cpu

import (
	"crypto/aes"
)

// AES_ENCRYPT, AES_DECRYPT in aes-128-ecb (sql/functions_aes.go).

func init() {
	stringBodies["aes_encrypt"] = func(f *rowFunc, a []val) val { return sv(aesECBEncrypt(a[0].s, a[1].s)) }
	stringBodies["aes_decrypt"] = func(f *rowFunc, a []val) val {
		s, ok := aesECBDecrypt(a[0].s, a[1].s)
		if !ok {
			return nullVal
		}
		return sv(s)
	}
}

// aesKey folds a key of any length into AES-128's 16 bytes, as MySQL's
// my_aes_create_key: byte i XORs into byte i % 16.
func aesKey(key string) []byte {
	k := make([]byte, aes.BlockSize)
	for i := 0; i < len(key); i++ {
		k[i%aes.BlockSize] ^= key[i]
	}
	return k
}

func aesECBEncrypt(s, key string) string {
	b, _ := aes.NewCipher(aesKey(key)) // a 16-byte key never fails
	pad := aes.BlockSize - len(s)%aes.BlockSize
	buf := make([]byte, len(s)+pad)
	copy(buf, s)
	for i := len(s); i < len(buf); i++ {
		buf[i] = byte(pad)
	}
	for i := 0; i < len(buf); i += aes.BlockSize {
		b.Encrypt(buf[i:i+aes.BlockSize], buf[i:i+aes.BlockSize])
	}
	return string(buf)
}

func aesECBDecrypt(s, key string) (string, bool) {
	if len(s) == 0 || len(s)%aes.BlockSize != 0 {
		return "", false
	}
	b, _ := aes.NewCipher(aesKey(key))
	buf := []byte(s)
	for i := 0; i < len(buf); i += aes.BlockSize {
		b.Decrypt(buf[i:i+aes.BlockSize], buf[i:i+aes.BlockSize])
	}
	pad := int(buf[len(buf)-1])
	if pad < 1 || pad > aes.BlockSize {
		return "", false
	}
	for _, p := range buf[len(buf)-pad:] {
		if int(p) != pad {
			return "", false
		}
	}
	return string(buf[:len(buf)-pad]), true
}
