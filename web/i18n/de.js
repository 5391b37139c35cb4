// @ts-check

export default {
  'lang.name': 'Deutsch',
};
