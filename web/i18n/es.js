// @ts-check

export default {
  'lang.name': 'Español',
};
