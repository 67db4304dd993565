export default {{{ not typescript
