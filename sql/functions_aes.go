package sql

import "gpusql/storage/columnar"

// AES_ENCRYPT(s, key) and AES_DECRYPT(crypt, key) as MySQL 8 computes
// them under its default block_encryption_mode, aes-128-ecb ("Encryption
// and Compression Functions" in the MySQL 8.0 manual): the key folds into
// 16 bytes (byte i XORed into byte i % 16 of a zeroed buffer), the text
// is PKCS#7-padded and each 16-byte block encrypted alone. An init vector
// (a third argument) is read by the CBC and other modes only; ECB ignores
// it. AES_DECRYPT of a text that is no such cipher text (a length not a
// multiple of 16, bad padding) is NULL. exec/cpu/rowfunc_aes.go computes
// them with crypto/aes.
//
//	name         args                        result
//	aes_encrypt  s, key VARCHAR [, iv]       VARCHAR (binary)
//	aes_decrypt  crypt, key VARCHAR [, iv]   VARCHAR (binary); NULL when crypt is none
func init() {
	for _, n := range []string{"aes_encrypt", "aes_decrypt"} {
		moreFuncs[n] = true
	}
}

func (c *call) aesFunc() (Expr, bool, error) {
	switch c.name {
	case "aes_encrypt", "aes_decrypt":
		if err := c.nativeArity(2, 3); err != nil {
			return nil, true, err
		}
		return c.fn(columnar.TString, c.str(c.args[0]), c.str(c.args[1]))
	}
	return nil, false, nil
}
